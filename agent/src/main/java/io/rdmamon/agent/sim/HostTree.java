package io.rdmamon.agent.sim;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Writes one simulated host root. Every file is replaced atomically (written under a scratch
 * directory on the same filesystem, then renamed over the target), so a reader running at the same
 * time sees either the old or the new value, never a half-written one. The scratch directory sits
 * at the root, outside {@code sys/} and {@code ethtool/}, so readers that list counter directories
 * never see temporary names. Unchanged files are not rewritten.
 */
final class HostTree {
    static final String SCRATCH_DIR = ".sim-tmp";

    private final Path root;
    private final Path scratch;
    private final Map<String, String> written = new HashMap<>();
    private long nextScratchId;

    private HostTree(Path root) {
        this.root = root;
        this.scratch = root.resolve(SCRATCH_DIR);
    }

    /**
     * Creates {@code root} (and its parents) for a new host tree.
     *
     * @throws IOException when {@code root} exists and is not an empty directory (never overwrites a
     *                     tree it did not make), or cannot be created
     */
    static HostTree create(Path root) throws IOException {
        if (Files.exists(root)) {
            if (!Files.isDirectory(root)) {
                throw new IOException("host root " + root + " exists and is not a directory");
            }
            try (Stream<Path> entries = Files.list(root)) {
                if (entries.findAny().isPresent()) {
                    throw new IOException("host root " + root + " already exists and is not empty; use a fresh base directory");
                }
            }
        }
        HostTree tree = new HostTree(root);
        Files.createDirectories(tree.scratch);
        return tree;
    }

    Path root() {
        return root;
    }

    /** Atomically sets {@code relative} (a path below the root, '/'-separated) to {@code content}. */
    void write(String relative, String content) throws IOException {
        String previous = written.get(relative);
        if (content.equals(previous)) {
            return;
        }
        Path target = root.resolve(relative);
        if (previous == null) {
            Files.createDirectories(target.getParent());
        }
        Path temporary = scratch.resolve(Long.toString(nextScratchId++));
        Files.writeString(temporary, content);
        Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        written.put(relative, content);
    }

    /** Creates the directory {@code relative} below the root. */
    void directory(String relative) throws IOException {
        Files.createDirectories(root.resolve(relative));
    }
}
