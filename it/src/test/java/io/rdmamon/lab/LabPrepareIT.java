package io.rdmamon.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmamon.protocol.testing.Slow;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scripts/lab/prepare.sh} on a machine that never ran the lab: an empty cache, and whatever kernel Debian serves
 * today. (A fresh machine's first run once failed here: {@code apt-get download} printed its progress on stdout and
 * that text became part of the package file's name.)
 */
@Slow
class LabPrepareIT {
    @Test
    void preparesTheBootFilesOfTodaysDebianKernelIntoAnEmptyCache(@TempDir Path cache) throws Exception {
        LabBootFiles files = LabBootFiles.prepareInto(cache);

        assertTrue(files.version().matches("[0-9][^\\s/]*-amd64"), "kernel release " + files.version());
        assertTrue(Files.isRegularFile(files.kernel()) && files.kernel().startsWith(cache), "kernel " + files.kernel());
        assertEquals("vmlinuz-" + files.version(), files.kernel().getFileName().toString());
        assertTrue(Files.isRegularFile(files.initrd()) && Files.size(files.initrd()) > 0, "initrd " + files.initrd());
        assertTrue(Files.isDirectory(cache.resolve("kernel-" + files.version() + "/root/lib/modules/" + files.version()
                + "/kernel/drivers/infiniband/sw/rxe")), "the unpacked kernel has Soft-RoCE");

        // the release prepared is the one Debian's linux-image-amd64 depends on today, read from the package fetched
        List<Path> metas;
        try (Stream<Path> listed = Files.list(cache)) {
            metas = listed.filter(p -> p.getFileName().toString().startsWith("linux-image-amd64_")).toList();
        }
        assertEquals(1, metas.size(), "one linux-image-amd64 package in the cache: " + metas);
        assertTrue(metas.get(0).getFileName().toString().matches("linux-image-amd64_[^/\\s]+_amd64\\.deb"),
                "a package file name with nothing but the package in it: " + metas.get(0));
        String depends = run("dpkg-deb", "-f", metas.get(0).toString(), "Depends");
        assertTrue(depends.contains("linux-image-" + files.version()), "prepared " + files.version()
                + ", but linux-image-amd64 depends on " + depends);
    }

    private static String run(String... argv) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(argv).redirectErrorStream(true).start();
        process.getOutputStream().close();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(30, TimeUnit.SECONDS), String.join(" ", argv) + " did not finish");
        assertEquals(0, process.exitValue(), String.join(" ", argv) + ": " + out);
        return out;
    }
}
