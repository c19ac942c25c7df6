package io.rdmamon.agent.sim;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Writes one simulated host root. Every file is replaced atomically (written under a scratch
 * directory on the same filesystem, then renamed over the target), so a reader running at the same
 * time sees either the old or the new value, never a half-written one. The scratch directory sits
 * at the root, outside {@code sys/} and {@code ethtool/}, so readers that list counter directories
 * never see temporary names. Unchanged files are not rewritten.
 *
 * <p>Until {@link #publish()} the tree is private to its creator (the simulator has not returned
 * it yet), so files are written in place: the first layout of a node is thousands of files (a
 * RoCE port has a 255-entry GID table) and a rename each would double the cost.
 */
final class HostTree {
    static final String SCRATCH_DIR = ".sim-tmp";

    private final Path root;
    private final Path scratch;
    private final Map<String, String> written = new HashMap<>();
    private final Set<Path> directories = new HashSet<>();
    private long nextScratchId;
    private boolean published;

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
        if (previous == null && directories.add(target.getParent())) {
            Files.createDirectories(target.getParent());
        }
        if (published) {
            Path temporary = scratch.resolve(Long.toString(nextScratchId++));
            Files.writeString(temporary, content);
            Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } else {
            Files.writeString(target, content);
        }
        written.put(relative, content);
    }

    /**
     * Atomically sets {@code relative} to binary {@code content} (a module EEPROM image). The cache keeps it as
     * ISO-8859-1 text, which maps every byte to one char, so unchanged images are not rewritten either.
     */
    void writeBytes(String relative, byte[] content) throws IOException {
        String asText = new String(content, StandardCharsets.ISO_8859_1);
        if (asText.equals(written.get(relative))) {
            return;
        }
        Path target = root.resolve(relative);
        if (!written.containsKey(relative) && directories.add(target.getParent())) {
            Files.createDirectories(target.getParent());
        }
        if (published) {
            Path temporary = scratch.resolve(Long.toString(nextScratchId++));
            Files.write(temporary, content);
            Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } else {
            Files.write(target, content);
        }
        written.put(relative, asText);
    }

    /**
     * Creates {@code relative} as a symbolic link to {@code target}, relative to the link's directory as the kernel's
     * sysfs links are ({@code device -> ../../../devices/pci0000:00/...}).
     */
    void symlink(String relative, String target) throws IOException {
        Path link = root.resolve(relative);
        Files.createDirectories(link.getParent());
        Files.createSymbolicLink(link, link.getParent().relativize(root.resolve(target)));
    }

    /** From now on readers may be looking: every write is atomic. */
    void publish() {
        published = true;
    }

    /** Creates the directory {@code relative} below the root. */
    void directory(String relative) throws IOException {
        Files.createDirectories(root.resolve(relative));
    }
}
