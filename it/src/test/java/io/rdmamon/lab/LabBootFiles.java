package io.rdmamon.lab;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The kernel and initramfs a lab VM boots, made (or found in the cache) by {@code scripts/lab/prepare.sh}: Debian's
 * kernel package and an initramfs of busybox-static and the modules Soft-RoCE needs. Prepared once per JVM.
 *
 * @param version the kernel release, e.g. {@code 6.1.0-50-amd64}
 * @param kernel  its vmlinuz
 * @param initrd  the initramfs
 */
public record LabBootFiles(String version, Path kernel, Path initrd) {
    /** The repository's root: the it module's tests run in {@code it/}. */
    static final Path REPOSITORY = Path.of("..").toAbsolutePath().normalize();
    private static LabBootFiles prepared;

    /**
     * The boot files, prepared on the first call; throws {@link LabUnavailableException} naming what this machine
     * lacks (root, qemu, a package, the kernel package) so that a lab test fails with the reason, not obscurely.
     */
    public static synchronized LabBootFiles prepare() throws IOException, InterruptedException {
        if (prepared == null) {
            requireHostParts();
            prepared = prepareInto(null);
        }
        return prepared;
    }

    /** The lab's own checks; prepare.sh checks the rest (qemu, /dev/net/tun, the packages). */
    private static void requireHostParts() {
        if (!"root".equals(System.getProperty("user.name"))) {
            throw new LabUnavailableException("the lab needs root (network namespaces, taps); run the test command"
                    + " as root");
        }
    }

    /**
     * Runs {@code prepare.sh} with {@code RDMAMON_LAB_CACHE} set to {@code cache}, or with the environment's cache
     * (default {@code ~/.cache/rdmamon-lab}) when it is null.
     */
    static LabBootFiles prepareInto(Path cache) throws IOException, InterruptedException {
        Path script = REPOSITORY.resolve("scripts/lab/prepare.sh");
        ProcessBuilder builder = new ProcessBuilder(script.toString()).redirectError(ProcessBuilder.Redirect.PIPE);
        if (cache != null) {
            builder.environment().put("RDMAMON_LAB_CACHE", cache.toString());
        }
        Process process = builder.start();
        process.getOutputStream().close();
        // apt-get download of a 70 MB package, depmod and the initramfs: a minute on a slow mirror.
        if (!process.waitFor(5, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new LabUnavailableException(script + " did not finish within 5 minutes");
        }
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        if (process.exitValue() != 0) {
            throw new LabUnavailableException(err.isEmpty() ? script + " exited with " + process.exitValue() : err);
        }
        Map<String, String> values = new HashMap<>();
        out.lines().filter(l -> l.contains("=")).forEach(l -> values.put(l.substring(0, l.indexOf('=')),
                l.substring(l.indexOf('=') + 1)));
        return new LabBootFiles(values.get("version"), Path.of(values.get("kernel")), Path.of(values.get("initrd")));
    }
}
