package io.rdmamon.agent.probe;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which sockets listen on a TCP port, from {@code /proc/net/tcp} and {@code /proc/net/tcp6}
 * (kernel {@code net/ipv4/tcp_ipv4.c} {@code get_tcp4_sock}: {@code "%4d: %08X:%04X %08X:%04X %02X ..."},
 * the local port in hex after the address, the state in hex, {@code 0A} = {@code TCP_LISTEN}, the
 * socket's inode the tenth field). Watching the kernel's table tells when perftest's server is
 * ready without connecting to it.
 */
public final class ListeningSockets {
    private static final String TCP_LISTEN = "0A";
    private static final List<Path> TABLES = List.of(Path.of("/proc/net/tcp"), Path.of("/proc/net/tcp6"));

    private ListeningSockets() {
    }

    /** Inodes of the sockets in state LISTEN on local port {@code port} in one table's lines (header included). */
    public static Set<Long> listeningInodes(List<String> table, int port) {
        Set<Long> inodes = new HashSet<>();
        for (String line : table) {
            String[] fields = line.trim().split("\\s+");
            if (fields.length < 10 || !fields[0].endsWith(":") || !TCP_LISTEN.equals(fields[3])) {
                continue; // the header line, or a socket in another state
            }
            int colon = fields[1].lastIndexOf(':');
            try {
                if (colon > 0 && Integer.parseInt(fields[1].substring(colon + 1), 16) == port) {
                    inodes.add(Long.parseLong(fields[9]));
                }
            } catch (NumberFormatException e) {
                // not a socket line of the known format: skip it rather than guess
            }
        }
        return inodes;
    }

    /** Inodes listening on {@code port} on this host (this network namespace), IPv4 and IPv6. */
    public static Set<Long> listeningInodes(int port) {
        Set<Long> inodes = new HashSet<>();
        for (Path table : TABLES) {
            try {
                inodes.addAll(listeningInodes(Files.readAllLines(table), port));
            } catch (IOException e) {
                // no IPv6 table when IPv6 is disabled: the other table still answers
            }
        }
        return inodes;
    }

    /** Whether process {@code pid} holds one of {@code inodes} among its open files ({@code socket:[inode]}). */
    public static boolean holdsAny(long pid, Set<Long> inodes) {
        if (inodes.isEmpty()) {
            return false;
        }
        try (var fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            return fds.anyMatch(fd -> {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    return target.startsWith("socket:[")
                            && inodes.contains(Long.parseLong(target.substring(8, target.length() - 1)));
                } catch (IOException | NumberFormatException e) {
                    return false; // closed meanwhile, or not a socket
                }
            });
        } catch (IOException e) {
            return false; // the process is gone
        }
    }
}
