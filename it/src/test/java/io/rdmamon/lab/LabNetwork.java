package io.rdmamon.lab;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

import io.rdmamon.protocol.testing.Waits;

/**
 * The lab's fabric: a bridge inside a network namespace the lab makes, with each VM's fabric tap on it. Nothing on
 * it has an address in the host's namespaces, and the bridge forwards only between the lab's taps, so the lab's
 * RoCE traffic stays on this machine. Deleting the namespace deletes the bridge and the taps in it.
 */
final class LabNetwork implements AutoCloseable {
    private static final String BRIDGE = "labbr0";
    final String namespace;

    private LabNetwork(String namespace) {
        this.namespace = namespace;
    }

    static LabNetwork create(String id) throws IOException, InterruptedException {
        String namespace = "rdmamon-lab-" + id;
        LabCommands.require(List.of("ip", "netns", "add", namespace));
        LabNetwork network = new LabNetwork(namespace);
        try {
            LabCommands.require(List.of("ip", "-n", namespace, "link", "add", BRIDGE, "type", "bridge"));
            LabCommands.require(List.of("ip", "-n", namespace, "link", "set", BRIDGE, "up"));
            return network;
        } catch (RuntimeException e) {
            network.close();
            throw e;
        }
    }

    /**
     * Moves the tap qemu opened (in the host's namespace, where qemu runs so that its user network reaches the
     * host's loopback) into the lab's namespace and onto the bridge; a tap keeps carrying its VM's frames after the
     * move. Waits until qemu has created it.
     */
    void attach(String tap) throws IOException, InterruptedException {
        Waits.waitFor(() -> exists(tap), "qemu to create tap " + tap, Duration.ofSeconds(30));
        LabCommands.require(List.of("ip", "link", "set", tap, "netns", namespace));
        LabCommands.require(List.of("ip", "-n", namespace, "link", "set", tap, "master", BRIDGE, "up"));
    }

    private static boolean exists(String tap) {
        try {
            return LabCommands.run(List.of("ip", "link", "show", tap), 10).rc() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public void close() throws IOException, InterruptedException {
        LabCommands.run(List.of("ip", "netns", "del", namespace), 30);
    }
}
