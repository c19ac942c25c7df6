package io.rdmamon.lab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A Soft-RoCE lab of up to three VMs ({@link LabVm}) on one bridge ({@link LabNetwork}), booted together and torn
 * down together, on failure too: every qemu is killed and the namespace deleted by {@link #close()}, and by a
 * shutdown hook should the test JVM be stopped first. See docs/lab.md.
 */
public final class Lab implements AutoCloseable {
    /** The bound: two cores are shared by every VM and the test JVM. */
    public static final int MAX_VMS = 3;
    /** Boot to {@code ready}: about 10 s alone under TCG, longer with three VMs and a JVM on two cores. */
    private static final Duration BOOT_LIMIT = Duration.ofSeconds(120);

    public final List<LabVm> vms;
    public final int collectorPort;
    private final LabNetwork network;
    private final Thread cleanup;

    private Lab(List<LabVm> vms, int collectorPort, LabNetwork network, Thread cleanup) {
        this.vms = vms;
        this.collectorPort = collectorPort;
        this.network = network;
        this.cleanup = cleanup;
    }

    /**
     * Boots {@code count} VMs named {@code lab-vm1…} with fabric addresses {@code 10.77.0.1…}; each guest reaches
     * {@link LabVm#COLLECTOR_URL}, forwarded to {@code 127.0.0.1:collectorPort} on the host.
     */
    public static Lab start(Path workDir, int count, int collectorPort) throws IOException, InterruptedException {
        if (count < 1 || count > MAX_VMS) {
            throw new IllegalArgumentException("a lab has 1 to " + MAX_VMS + " VMs, not " + count);
        }
        LabBootFiles boot = LabBootFiles.prepare();
        GuestClassArchive.ensure();
        String id = HexFormat.of().toHexDigits((short) ThreadLocalRandom.current().nextInt());
        LabNetwork network = LabNetwork.create(id);
        List<LabVm> vms = new ArrayList<>();
        Thread cleanup = new Thread(() -> stopAll(vms, network));
        Runtime.getRuntime().addShutdownHook(cleanup);
        Lab lab = new Lab(vms, collectorPort, network, cleanup);
        try {
            // One vCPU each when several share the two cores: TCG runs a thread per vCPU.
            int cpus = count == 1 ? 2 : 1;
            for (int i = 1; i <= count; i++) {
                Path dir = Files.createDirectories(workDir.resolve("vm" + i));
                vms.add(LabVm.boot(boot, network, dir, "lab-vm" + i, i, cpus, collectorPort, "rlab" + id + i));
            }
            for (LabVm vm : vms) {
                vm.awaitReady(BOOT_LIMIT);
            }
            return lab;
        } catch (IOException | InterruptedException | RuntimeException | Error e) {
            lab.close();
            throw e;
        }
    }

    public LabVm vm(int index) {
        return vms.get(index - 1);
    }

    private static void stopAll(List<LabVm> vms, LabNetwork network) {
        try {
            for (LabVm vm : vms) {
                vm.close();
            }
            network.close();
        } catch (IOException e) {
            System.err.println("lab: cleanup: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        stopAll(vms, network);
        try {
            Runtime.getRuntime().removeShutdownHook(cleanup);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs anyway
        }
    }
}
