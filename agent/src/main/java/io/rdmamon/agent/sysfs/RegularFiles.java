package io.rdmamon.agent.sysfs;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Refuses a file that is not a regular one before it is opened. The files rdmamon reads whole from a host root
 * ({@code etc/nccl.conf}, the {@code ethtool} and {@code dcb} captures) are plain files; a FIFO there blocks
 * {@code open(2)} until a writer comes, which may be never, and no Java interrupt wakes it. Links are followed
 * (captures and sysfs use them): it is the target that must be a regular file.
 */
public final class RegularFiles {
    /** {@code S_IFMT} and its file types, from {@code <sys/stat.h>}. */
    private static final int S_IFMT = 0170000;

    /** A file that exists but is a FIFO, socket, device or directory; the reason says which. */
    public static final class NotRegularFileException extends FileSystemException {
        NotRegularFileException(String name, String type) {
            super(name, null, "not a regular file (" + type + ")");
        }
    }

    private RegularFiles() {
    }

    /**
     * Returns when {@code file} (its link target) is a regular file.
     *
     * @param name how a refusal names the file (a path relative to the host root)
     * @throws NotRegularFileException when it is something else
     * @throws java.nio.file.NoSuchFileException when it (or a link's target) does not exist
     */
    public static void require(Path file, String name) throws IOException {
        int mode = (Integer) Files.getAttribute(file, "unix:mode");
        String type = fileType(mode);
        if (type != null) {
            throw new NotRegularFileException(name, type);
        }
    }

    /**
     * {@code files} refusing a file that is not a regular one before it opens it ({@link #require}, named relative to
     * {@code hostRoot}): for readers of sysfs trees that may be captures (the topology), whose attributes are all
     * regular files.
     */
    public static SmallFileReader guarding(SmallFileReader files, Path hostRoot) {
        return file -> {
            requireUnder(hostRoot, file);
            return files.read(file);
        };
    }

    /** As {@link #require}, naming {@code file} relative to {@code hostRoot} when it is below it. */
    public static void requireUnder(Path hostRoot, Path file) throws IOException {
        require(file, file.startsWith(hostRoot) ? hostRoot.relativize(file).toString() : file.toString());
    }

    /** The type of a {@code st_mode} that is not a regular file, as {@code stat(1)} names it; null for a regular file. */
    static String fileType(int mode) {
        return switch (mode & S_IFMT) {
            case 0100000 -> null;
            case 0010000 -> "FIFO";
            case 0140000 -> "socket";
            case 0020000 -> "character device";
            case 0060000 -> "block device";
            case 0040000 -> "directory";
            default -> String.format("file type 0%o", mode & S_IFMT);
        };
    }
}
