package io.rdmamon.agent.sysfs;

import io.rdmamon.agent.sysfs.SysfsFiles.Failure;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

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

    /**
     * {@code file} read through {@code files}; null when the read fails, and a failure not in {@code tolerated} (an
     * absent file where it may be absent) becomes a problem naming the file.
     */
    public String read(SmallFileReader files, Path file, Set<Failure> tolerated) {
        try {
            return files.read(file);
        } catch (IOException e) {
            if (!tolerated.contains(SysfsFiles.classify(e))) {
                add(file, SysfsFiles.describe(e));
            }
            return null;
        }
    }

    /**
     * {@code parser} applied to {@code file}'s {@code text} (null: null). Whatever the parser throws costs this one
     * file: its message (or, for a parser bug, the exception with the text quoted) becomes the file's problem, and
     * the caller goes on with null.
     */
    public <T> T parse(Path file, String text, Function<String, T> parser) {
        if (text == null) {
            return null;
        }
        try {
            return parser.apply(text);
        } catch (IllegalArgumentException e) {
            add(file, e.getMessage());
            return null;
        } catch (RuntimeException e) {
            add(file, "cannot parse " + ProblemText.quote(text) + ": " + e);
            return null;
        }
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
