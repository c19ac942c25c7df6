package io.rdmamon.agent.probe;

import java.util.ArrayDeque;
import java.util.List;

/** The last lines of a program's output: a run that prints without end keeps a bounded memory. */
public final class OutputTail {
    public static final int DEFAULT_LINES = 200;

    private final int capacity;
    private final ArrayDeque<String> lines = new ArrayDeque<>();

    public OutputTail(int capacity) {
        this.capacity = capacity;
    }

    public synchronized void add(String line) {
        if (lines.size() == capacity) {
            lines.removeFirst();
        }
        lines.addLast(line);
    }

    public synchronized List<String> snapshot() {
        return List.copyOf(lines);
    }
}
