package io.rdmamon.agent.host;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

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

    /** A copy of fixture {@code name} in {@code target}, symlinks kept as symlinks. */
    public static Path copy(String name, Path target) throws IOException {
        Path source = root(name);
        Files.walkFileTree(source, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                Files.createDirectories(target.resolve(source.relativize(dir).toString()));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.copy(file, target.resolve(source.relativize(file).toString()), LinkOption.NOFOLLOW_LINKS);
                return FileVisitResult.CONTINUE;
            }
        });
        return target;
    }
}
