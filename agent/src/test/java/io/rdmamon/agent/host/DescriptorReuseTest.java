package io.rdmamon.agent.host;

import io.rdmamon.agent.sysfs.AttributeFiles;
import io.rdmamon.agent.sysfs.SmallFileReader;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sample reader with descriptors kept between samples, as on sysfs (forced here: the build machine has
 * no sysfs RDMA tree, and {@code AttributeFilesTest} covers real sysfs files): same values as reading every
 * file anew, a device removed and re-added is read afresh, and the descriptors stay bounded.
 */
class DescriptorReuseTest {
    private static final String DEVICE = "sys/class/infiniband/mlx5_1";
    private static final String SYMBOL_ERROR = DEVICE + "/ports/1/counters/symbol_error";

    @TempDir
    Path root;

    @Test
    void keptDescriptorsGiveTheSameSampleAsOpeningEveryFile() throws Exception {
        Fixtures.copy("mlx5-roce", root);
        AttributeFiles kept = AttributeFiles.keepingDescriptors(AttributeFiles.DEFAULT_MAX_DESCRIPTORS);
        HostReader withDescriptors = reader(kept);
        HostReader openEachTime = reader(AttributeFiles.openingEachRead());

        HostSample first = withDescriptors.read("n");
        HostSample second = withDescriptors.read("n");

        assertEquals(openEachTime.read("n").devices(), first.devices());
        assertEquals(first.devices(), second.devices());
        assertEquals(first.sources(), second.sources());
        assertTrue(kept.keptDescriptors() > 50, "descriptors kept: " + kept.keptDescriptors());
    }

    @Test
    void aDeviceRemovedAndReAddedUnderTheRootIsReadAfresh() throws Exception {
        Fixtures.copy("mlx5-roce", root);
        Files.writeString(root.resolve(SYMBOL_ERROR), "11\n");
        AttributeFiles kept = AttributeFiles.keepingDescriptors(AttributeFiles.DEFAULT_MAX_DESCRIPTORS);
        HostReader reader = reader(kept);
        assertEquals(11L, symbolErrors(reader.read("n")));
        int withBoth = kept.keptDescriptors();

        Path saved = Files.createTempDirectory(root.getParent(), "saved-device");
        Fixtures.copy("mlx5-roce", saved);
        deleteTree(root.resolve(DEVICE));
        HostSample without = reader.read("n");
        assertEquals(List.of("mlx5_0"), without.devices().stream().map(IbDevice::name).toList());
        assertTrue(kept.keptDescriptors() < withBoth, "the vanished device's descriptors are closed: "
                + kept.keptDescriptors() + " of " + withBoth);

        Files.move(saved.resolve(DEVICE), root.resolve(DEVICE));
        Files.writeString(root.resolve(SYMBOL_ERROR), "12\n");
        deleteTree(saved);

        assertEquals(12L, symbolErrors(reader.read("n")), "the re-added device's new file, not the old descriptor");
    }

    @Test
    void theNumberOfOpenDescriptorsStaysWithinTheBound() throws Exception {
        Fixtures.copy("mlx5-roce", root);
        int bound = 16;
        AttributeFiles kept = AttributeFiles.keepingDescriptors(bound);
        HostReader reader = reader(kept);
        HostSample reference = reader(AttributeFiles.openingEachRead()).read("n");
        long before = openDescriptorsUnderRoot();

        HostSample sample = reader.read("n");
        reader.read("n");

        assertEquals(bound, kept.keptDescriptors());
        assertEquals(bound, openDescriptorsUnderRoot() - before, "the process holds exactly the kept descriptors more");
        assertEquals(reference.devices(), sample.devices(), "files past the bound are read the old way, with the same values");
        kept.closeAll();
        assertEquals(before, openDescriptorsUnderRoot());
    }

    private HostReader reader(SmallFileReader files) throws HostRootException {
        return HostReader.builder(root).files(files).build();
    }

    private static Long symbolErrors(HostSample sample) {
        return sample.devices().stream().filter(d -> d.name().equals("mlx5_1")).findFirst().orElseThrow()
                .ports().get(0).counters().get("symbol_error");
    }

    /**
     * Descriptors that point into the test's host root. Counting every descriptor of the process flaked in CI:
     * other threads of the test JVM (surefire's channel, class loading, cleaners) open and close their own.
     */
    private long openDescriptorsUnderRoot() throws IOException {
        Path real = root.toRealPath();
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.filter(fd -> pointsUnder(fd, real)).count();
        }
    }

    private static boolean pointsUnder(Path fd, Path dir) {
        try {
            return Files.readSymbolicLink(fd).startsWith(dir);
        } catch (IOException vanished) {
            return false; // closed between the listing and the read: not one of ours
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
