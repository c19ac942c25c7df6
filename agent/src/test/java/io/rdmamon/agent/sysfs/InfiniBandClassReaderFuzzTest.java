package io.rdmamon.agent.sysfs;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.rdmamon.agent.host.Fixtures;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Fuzzes {@link InfiniBandClassReader#readDevice} (ports, counters, the GID table and the netdev resolution of
 * {@link NetdevResolver}) over the fixture trees, each attribute read answering the fixture's own text, text of
 * the fuzzer's or a read failure of the kinds sysfs gives. The reader's contract: it never throws for a file;
 * whatever it cannot read or parse becomes a problem line of its device.
 */
class InfiniBandClassReaderFuzzTest {
    private static final List<String> FIXTURES = List.of("mlx5-roce", "mlx4-ib", "mlx5-ib", "bnxt-re", "erdma",
            "irdma-no-pma", "procfs");
    /** The fixtures' own answers, read once: the fuzzer varies the answers, not the disk. */
    private static final Map<Path, FixtureRead> FIXTURE_READS = new ConcurrentHashMap<>();

    @FuzzTest
    void everyDeviceReadsWithoutThrowingWhateverItsFilesSay(FuzzedDataProvider data) throws IOException {
        Path root = Fixtures.root(data.pickValue(FIXTURES));
        InfiniBandClassReader reader = new InfiniBandClassReader(root, file -> answer(file, data));
        for (String name : reader.deviceNames()) {
            assertEquals(name, reader.readDevice(name).name());
        }
    }

    /** Out of input, every read answers the fixture's text: the empty input reads the fixture as it is. */
    private static String answer(Path file, FuzzedDataProvider data) throws IOException {
        return switch (data.consumeInt(0, 5)) {
            case 1 -> data.consumeString(80).strip();
            case 2 -> throw new NoSuchFileException(file.toString());
            case 3 -> throw new AccessDeniedException(file.toString());
            case 4 -> throw new FileSystemException(file.toString(), null, "Invalid argument");
            case 5 -> throw new IOException("Input/output error");
            default -> FIXTURE_READS.computeIfAbsent(file, FixtureRead::of).answer();
        };
    }

    /** One real read of a fixture file: its text, or the failure (most often: no such file). */
    private record FixtureRead(String text, IOException failure) {
        static FixtureRead of(Path file) {
            try {
                return new FixtureRead(SysfsFiles.readOnce(file), null);
            } catch (IOException e) {
                return new FixtureRead(null, e);
            }
        }

        String answer() throws IOException {
            if (failure != null) {
                throw failure;
            }
            return text;
        }
    }
}
