package io.rdmamon.agent.sysfs;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The problems met while reading one subject, each as {@code "<path relative to the host root>: <reason>"},
 * so an operator can {@code cat} the file at fault.
 */
public final class ReadProblems {
    private final Path hostRoot;
    private final List<String> messages = new ArrayList<>();

    public ReadProblems(Path hostRoot) {
        this.hostRoot = hostRoot;
    }

    public void add(Path file, String reason) {
        messages.add(relative(file) + ": " + reason);
    }

    /** How many problems so far (a caller compares before and after one step). */
    public int size() {
        return messages.size();
    }

    public boolean isEmpty() {
        return messages.isEmpty();
    }

    public List<String> messages() {
        return List.copyOf(messages);
    }

    /** All problems on one line, for a {@link io.rdmamon.protocol.model.SourceStatus} error. */
    public String joined() {
        return String.join("; ", messages);
    }

    private String relative(Path file) {
        return file.startsWith(hostRoot) ? hostRoot.relativize(file).toString() : file.toString();
    }
}
