package io.rdmamon.agent.sysfs;

import io.rdmamon.agent.sysfs.RegularFiles.NotRegularFileException;
import io.rdmamon.protocol.testing.Fifos;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class RegularFilesTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "null", value = {
            "0100644|null",
            "0010644|FIFO",
            "0140755|socket",
            "0020666|character device",
            "0060660|block device",
            "0040755|directory",
            "0000644|file type 00"})
    void fileTypesOfModes(String octalMode, String expected) {
        assertEquals(expected, RegularFiles.fileType(Integer.parseInt(octalMode, 8)));
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    void refusesAFifoAndALinkToOneNamingThemAndFollowsALinkToAFile(@TempDir Path dir) throws Exception {
        Path fifo = Fifos.make(dir.resolve("etc/nccl.conf"));
        Path linkToFifo = Files.createSymbolicLink(dir.resolve("module"), fifo);
        Path file = Files.writeString(dir.resolve("statistics"), "NIC statistics:\n");
        Path linkToFile = Files.createSymbolicLink(dir.resolve("link"), file);

        assertEquals("etc/nccl.conf: not a regular file (FIFO)", assertThrows(NotRegularFileException.class,
                () -> RegularFiles.require(fifo, "etc/nccl.conf")).getMessage());
        assertEquals("ethtool/eth0/module: not a regular file (FIFO)", assertThrows(NotRegularFileException.class,
                () -> RegularFiles.require(linkToFifo, "ethtool/eth0/module")).getMessage());
        assertEquals("etc: not a regular file (directory)", assertThrows(NotRegularFileException.class,
                () -> RegularFiles.require(dir.resolve("etc"), "etc")).getMessage());
        assertThrows(NoSuchFileException.class, () -> RegularFiles.require(dir.resolve("absent"), "absent"));
        RegularFiles.require(file, "statistics");
        RegularFiles.require(linkToFile, "link");
    }
}
