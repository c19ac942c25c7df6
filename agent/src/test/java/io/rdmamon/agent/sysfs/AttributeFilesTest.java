package io.rdmamon.agent.sysfs;

import io.rdmamon.nativeio.FileSystemType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The agent's file reader: descriptors kept on sysfs only, pread re-reads, the byte-level counter parse. */
class AttributeFilesTest {
    private static final Path SYS = Path.of("/sys");
    private static final Path LO_MTU = Path.of("/sys/class/net/lo/mtu");
    private static final Path LO_RX_PACKETS = Path.of("/sys/class/net/lo/statistics/rx_packets");

    @TempDir
    Path dir;

    @Test
    void theSysfsCheckReadsTheStatfsMagic() throws IOException {
        assumeTrue(Files.isReadable(LO_MTU), "no /sys/class/net/lo here");
        assertEquals(FileSystemType.SYSFS_MAGIC, FileSystemType.magic(SYS));
        assertNotEquals(FileSystemType.SYSFS_MAGIC, FileSystemType.magic(dir));
        assertTrue(AttributeFiles.forRoot(Path.of("/")).keepsDescriptors(), "/sys is sysfs");
        assertFalse(AttributeFiles.forRoot(dir).keepsDescriptors(), "a capture tree is not");
        IOException missing = assertThrows(IOException.class, () -> FileSystemType.magic(dir.resolve("absent")));
        assertTrue(missing.getMessage().contains(dir.resolve("absent").toString()), missing.getMessage());
    }

    /** Real sysfs attributes through the same code as the agent on root {@code /}: one descriptor each, fresh values. */
    @Test
    void onSysfsADescriptorIsKeptAndEachPreadSeesTheKernelsCurrentValue() throws Exception {
        assumeTrue(Files.isReadable(LO_RX_PACKETS), "no /sys/class/net/lo here");
        AttributeFiles files = AttributeFiles.forRoot(Path.of("/"));
        try {
            assertEquals(SysfsFiles.readOnce(LO_MTU), files.read(LO_MTU));
            long before = files.readCounter(LO_RX_PACKETS);
            assertEquals(2, files.keptDescriptors());
            sendLoopbackDatagrams(3);
            long after = files.readCounter(LO_RX_PACKETS);

            assertTrue(after >= before + 3, "the kept descriptor re-read the counter: " + before + " -> " + after);
            assertEquals(2, files.keptDescriptors(), "no new descriptor for a second read");
            assertEquals(Long.parseLong(SysfsFiles.readOnce(LO_MTU)), files.readCounter(LO_MTU));
        } finally {
            files.closeAll();
        }
    }

    /** Tools replace capture files by rename: a kept descriptor would read the old file for ever. */
    @Test
    void onACaptureTreeEveryReadOpensAnewSoAReplacedFileIsSeen() throws IOException {
        Path counter = dir.resolve("port_rcv_packets");
        Files.writeString(counter, "10\n");
        AttributeFiles capture = AttributeFiles.forRoot(dir);
        AttributeFiles kept = AttributeFiles.keepingDescriptors(8);
        assertEquals(10L, capture.readCounter(counter));
        assertEquals(10L, kept.readCounter(counter));

        Path next = dir.resolve("port_rcv_packets.tmp");
        Files.writeString(next, "25\n");
        Files.move(next, counter, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);

        assertEquals(25L, capture.readCounter(counter));
        assertEquals(0, capture.keptDescriptors());
        assertEquals(10L, kept.readCounter(counter), "why only sysfs keeps descriptors: the replaced file stays open");
        kept.closeAll();
    }

    /** A kept descriptor of a file that went (a process here, a device on sysfs) is dropped; the file is opened anew. */
    @Test
    void aDescriptorWhoseFileWentIsDroppedAndTheReadReportsTheFileAbsent() throws Exception {
        Process sleeper = new ProcessBuilder("sleep", "60").start();
        Path comm = Path.of("/proc", Long.toString(sleeper.pid()), "comm");
        AttributeFiles files = AttributeFiles.keepingDescriptors(8);
        try {
            assertEquals("sleep", files.read(comm));
            assertEquals(1, files.keptDescriptors());
        } finally {
            sleeper.destroy();
            assertTrue(sleeper.waitFor(10, TimeUnit.SECONDS));
        }
        NoSuchFileException gone = assertThrows(NoSuchFileException.class, () -> files.read(comm));
        assertEquals(SysfsFiles.Failure.ABSENT, SysfsFiles.classify(gone));
        assertEquals(0, files.keptDescriptors());
    }

    @Test
    void descriptorsAreBoundedAndThoseASampleDidNotReadAreClosed() throws IOException {
        AttributeFiles files = AttributeFiles.keepingDescriptors(3);
        for (int i = 0; i < 5; i++) {
            Files.writeString(dir.resolve("c" + i), i + "\n");
        }
        for (int i = 0; i < 5; i++) {
            assertEquals((long) i, files.readCounter(dir.resolve("c" + i)), "past the bound, read the old way");
        }
        assertEquals(3, files.keptDescriptors());
        files.sampleEnded();
        assertEquals(3, files.keptDescriptors(), "all read in the sample that ended");

        files.readCounter(dir.resolve("c0"));
        files.sampleEnded();
        assertEquals(1, files.keptDescriptors(), "c1 and c2 were not read in this sample");
        files.readCounter(dir.resolve("c4"));
        assertEquals(2, files.keptDescriptors(), "room again for c4");
        files.closeAll();
        assertEquals(0, files.keptDescriptors());
    }

    /** The byte-level parse gives exactly what {@link SysfsParsers#parseCounter} gives for the trimmed text, refusals included. */
    @ParameterizedTest
    @ValueSource(strings = {"0", "42\n", "  7 \n", "1234567890123456789", "9999999999999999999\n",
            "18446744073709551615\n", "00000000000000000000042", "N/A (no PMA)\n", "", "\n", "12a\n", "-1",
            "+5", "18446744073709551616", "1 2", "4\u0000", "\u00e9", "7\u001c"})
    void countersParsedFromBytesMatchTheTextParser(String content) throws IOException {
        Path file = dir.resolve("counter");
        Files.write(file, content.getBytes(StandardCharsets.UTF_8));
        String text = new String(content.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8).strip();
        Object expected;
        try {
            expected = SysfsParsers.parseCounter(text);
        } catch (IllegalArgumentException e) {
            expected = e.getMessage();
        }
        for (AttributeFiles files : new AttributeFiles[]{AttributeFiles.openingEachRead(), AttributeFiles.keepingDescriptors(4)}) {
            Object actual;
            try {
                actual = files.readCounter(file);
            } catch (IllegalArgumentException e) {
                actual = e.getMessage();
            }
            assertEquals(expected, actual, "content " + ProblemText.quote(content));
            files.closeAll();
        }
    }

    /**
     * Reads through libc fail with the exceptions {@code FileChannel} throws ({@link SysfsFiles#readOnce}), so the
     * readers name and classify a problem the same way: absent (on a tree and on sysfs), not a directory on the
     * way, a directory (opened, then the read fails).
     */
    @Test
    void failuresThroughLibcAreTheOnesFileChannelReports() throws IOException {
        Path regular = dir.resolve("regular");
        Files.writeString(regular, "1\n");
        List<Path> failing = new ArrayList<>(List.of(dir.resolve("absent"), regular.resolve("below"), dir));
        if (Files.exists(Path.of("/sys/class/net/lo/statistics"))) {
            failing.add(Path.of("/sys/class/net/lo/statistics/absent"));
        }
        for (Path file : failing) {
            IOException expected = assertThrows(IOException.class, () -> SysfsFiles.readOnce(file), file.toString());
            for (AttributeFiles files : new AttributeFiles[]{AttributeFiles.openingEachRead(), AttributeFiles.keepingDescriptors(4)}) {
                IOException actual = assertThrows(IOException.class, () -> files.read(file), file.toString());
                assertEquals(expected.getClass(), actual.getClass(), file.toString());
                assertEquals(SysfsFiles.classify(expected), SysfsFiles.classify(actual), file.toString());
                assertEquals(SysfsFiles.describe(expected), SysfsFiles.describe(actual), file.toString());
                assertEquals(0, files.keptDescriptors(), "a failed read keeps nothing: " + file);
            }
        }
    }

    private static void sendLoopbackDatagrams(int count) throws IOException {
        try (DatagramSocket receiver = new DatagramSocket(0, InetAddress.getLoopbackAddress());
             DatagramSocket sender = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            byte[] payload = {1, 2, 3};
            for (int i = 0; i < count; i++) {
                sender.send(new DatagramPacket(payload, payload.length, receiver.getLocalSocketAddress()));
            }
        }
    }
}
