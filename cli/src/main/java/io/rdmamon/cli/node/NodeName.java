package io.rdmamon.cli.node;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;

/** The default {@code --node}: this machine's host name, as {@code hostname} prints it. */
final class NodeName {
    private static final Path KERNEL_HOSTNAME = Path.of("/proc/sys/kernel/hostname");

    private NodeName() {
    }

    static String ofThisHost() {
        // the kernel's nodename needs no DNS lookup, unlike InetAddress.getLocalHost()
        try {
            String name = Files.readString(KERNEL_HOSTNAME).strip();
            if (!name.isEmpty()) {
                return name;
            }
        } catch (IOException e) {
            // not Linux, or /proc not mounted: fall back to the JDK's view below
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "localhost";
        }
    }
}
