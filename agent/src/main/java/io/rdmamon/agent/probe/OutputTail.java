package io.rdmamon.agent.probe;

import java.util.ArrayDeque;
import java.util.List;

/** The last lines of a program's output: a run that prints without end keeps a bounded memory. */
final class OutputTail {
    static final int DEFAULT_LINES = 200;

    private final int capacity;
    private final ArrayDeque<String> lines = new ArrayDeque<>();

    OutputTail(int capacity) {
        this.capacity = capacity;
    }

    synchronized void add(String line) {
        if (lines.size() == capacity) {
            lines.removeFirst();
        }
        lines.addLast(line);
    }

    synchronized List<String> snapshot() {
        return List.copyOf(lines);
    }
}
