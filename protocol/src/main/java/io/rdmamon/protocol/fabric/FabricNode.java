package io.rdmamon.protocol.fabric;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One node of the subnet: an HCA (channel adapter), a switch or a router.
 *
 * @param guid        SMP NodeInfo (0x0011) {@code NodeGUID}, {@code 0x}-prefixed lower-case hex of 16 digits
 * @param type        NodeInfo {@code NodeType}
 * @param description SMP NodeDescription (0x0010): at most 64 bytes the node's owner chose, made printable
 *                    ({@code HostText}); for an HCA usually "host mlx5_0"
 * @param ports       the ports read, by number: NodeInfo {@code NumPorts} tells how many there are
 */
public record FabricNode(String guid, NodeType type, String description, List<FabricPort> ports) {
    /** NodeDescription is 64 bytes. */
    public static final int MAX_DESCRIPTION_CHARS = 64;

    public FabricNode {
        Objects.requireNonNull(guid, "guid");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(description, "description");
        ports = List.copyOf(ports);
    }

    /** Port {@code number}, if read. */
    public Optional<FabricPort> port(int number) {
        return ports.stream().filter(p -> p.number() == number).findFirst();
    }
}
