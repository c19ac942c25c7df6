package io.rdmamon.collector.fabric;

import io.rdmamon.collector.store.NodeView;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.PortWorkload;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The hosts behind a fabric's HCA ports: an agent's device whose {@code node_guid} is a fabric node's GUID is that
 * node, so the rules' evidence names the host, device and port behind a cable end and the workloads on it. An
 * immutable index of the store's last samples, built once per sweep.
 */
public final class HostPorts {
    /** No hosts known. */
    public static final HostPorts NONE = new HostPorts(Map.of());

    /** A host port: the agent's node, device and port, and the workloads holding QPs on it. */
    public record HostPort(String node, String device, int port, List<String> workloads) {
        public HostPort {
            workloads = List.copyOf(workloads);
        }

        /** {@code h1 mlx5_0 port 1 (workloads: ns/pod/container)}. */
        @Override
        public String toString() {
            return node + " " + device + " port " + port + (workloads.isEmpty() ? ""
                    : " (workloads: " + String.join(", ", workloads) + ")");
        }
    }

    private final Map<String, HostPort> byGuidPort;

    private HostPorts(Map<String, HostPort> byGuidPort) {
        this.byGuidPort = Map.copyOf(byGuidPort);
    }

    /** The index of {@code nodes}' last samples. */
    public static HostPorts of(List<NodeView> nodes) {
        Map<String, HostPort> index = new HashMap<>();
        for (NodeView view : nodes) {
            HostSample sample = view.lastSample();
            if (sample == null) {
                continue;
            }
            for (IbDevice device : sample.devices()) {
                String guid = fabricGuid(device.nodeGuid());
                if (guid == null) {
                    continue;
                }
                device.ports().forEach(port -> index.put(guid + "/" + port.port(), new HostPort(view.node(),
                        device.name(), port.port(), workloads(device, port.port()))));
            }
        }
        return new HostPorts(index);
    }

    /** The host port behind fabric node {@code guid}'s port {@code port}, if an agent reports it. */
    public Optional<HostPort> of(String guid, int port) {
        return Optional.ofNullable(byGuidPort.get(guid + "/" + port));
    }

    /**
     * sysfs {@code node_guid} ({@code 0002:c903:00a1:b2c3}) as the fabric spells a GUID ({@code 0x0002c90300a1b2c3});
     * null when absent or not a GUID.
     */
    public static String fabricGuid(String sysfsGuid) {
        if (sysfsGuid == null) {
            return null;
        }
        String hex = sysfsGuid.replace(":", "").toLowerCase(Locale.ROOT);
        return hex.matches("[0-9a-f]{16}") ? "0x" + hex : null;
    }

    private static List<String> workloads(IbDevice device, int port) {
        List<String> names = new ArrayList<>();
        if (device.resources() == null) {
            return names;
        }
        for (PortWorkload w : device.resources().workloads()) {
            if (w.port() == port && w.qps() > 0 && !PortWorkload.NONE.equals(w.attribution())) {
                names.add(w.namespace() != null && w.pod() != null ? w.namespace() + "/" + w.pod() : w.comm());
            }
        }
        return names;
    }
}
