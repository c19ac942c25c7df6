package io.rdmamon.agent.host;

import java.io.IOException;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.EnumSet;
import java.util.Set;

/** The host-root fixtures under {@code agent/src/test/fixtures} and copies of them to break. */
public final class Fixtures {
    /** Relative to any module directory, so that the it/ module reads the same fixtures. */
    private static final Path DIR = Path.of("..", "agent", "src", "test", "fixtures");

    private Fixtures() {
    }

    public static Path root(String name) {
        return DIR.resolve(name).toAbsolutePath();
    }

    public static HostReader reader(String name) throws HostRootException {
        return HostReader.forRoot(root(name));
    }

    /** The settings of a reader of fixture {@code name}, to change some. */
    public static HostReader.Builder builder(String name) throws HostRootException {
        return HostReader.builder(root(name));
    }

    /** A copy of fixture {@code name} in {@code target}, symlinks kept as symlinks. */
    public static Path copy(String name, Path target) throws IOException {
        return copyTree(root(name), target, false);
    }

    /**
     * A copy of the tree {@code source} in {@code target} made as {@code cp -rL} or {@code tar -h} make one: each link
     * replaced by a copy of what it leads to (a link whose target is missing is kept as a link, as tar keeps it).
     */
    public static Path copyFollowingLinks(Path source, Path target) throws IOException {
        return copyTree(source, target, true);
    }

    private static Path copyTree(Path source, Path target, boolean followLinks) throws IOException {
        Set<FileVisitOption> options = followLinks ? EnumSet.of(FileVisitOption.FOLLOW_LINKS)
                : EnumSet.noneOf(FileVisitOption.class);
        Files.walkFileTree(source, options, Integer.MAX_VALUE, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                Files.createDirectories(target.resolve(source.relativize(dir).toString()));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                // a dangling link reaches here with its own attributes even when links are followed
                LinkOption[] copyLinks = followLinks && !attrs.isSymbolicLink() ? new LinkOption[0]
                        : new LinkOption[] {LinkOption.NOFOLLOW_LINKS};
                Files.copy(file, target.resolve(source.relativize(file).toString()), copyLinks);
                return FileVisitResult.CONTINUE;
            }
        });
        return target;
    }

    /**
     * Makes {@code device}'s {@code device} link of a copied root point at {@code sys/devices/<path>} (its files moved
     * there), as the kernel links an RDMA device to its PCI function; the function's directory.
     */
    public static Path placeDevice(Path root, String device, String path) throws IOException {
        Path link = root.resolve("sys/class/infiniband").resolve(device).resolve("device");
        Path target = root.resolve("sys/devices").resolve(path);
        Files.createDirectories(target.getParent());
        if (Files.isDirectory(link)) {
            Files.move(link, target);
        } else {
            Files.createDirectories(target);
        }
        Files.createSymbolicLink(link, link.getParent().relativize(target));
        return target.getFileName().toString().startsWith("virtio") ? target.getParent() : target;
    }
}
