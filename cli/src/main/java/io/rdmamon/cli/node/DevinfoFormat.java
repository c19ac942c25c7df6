package io.rdmamon.cli.node;

import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.LldpNeighbor;

import java.util.List;

/**
 * {@code rdmamon devinfo}: devices and ports laid out like {@code ibv_devinfo} (rdma-core
 * {@code libibverbs/examples/devinfo.c}: tab-indented {@code key:<tabs>value} lines, one block per
 * device, a blank line after each port). It shows what sysfs knows: node type instead of
 * transport, the sysfs rate text, the GID count, the port's netdev and the switch port it is cabled to (its LLDP
 * neighbour, a line ibv_devinfo does not have). Absent values are left out,
 * as ibv_devinfo leaves out an empty fw_ver or board_id. Pure: no I/O.
 */
public final class DevinfoFormat {
    private DevinfoFormat() {
    }

    /** JSON shape of one device for {@code devinfo --json}: the same fields as the text. */
    public record DeviceInfo(String hcaId, String nodeType, Integer nodeTypeId, String fwVersion, String nodeGuid,
                             String sysImageGuid, String hcaType, String boardId, int physPortCount,
                             List<PortInfo> ports) {
    }

    /**
     * JSON shape of one port; null fields are absent in the host and omitted from the JSON. {@code neighbor} is the
     * port's LLDP neighbour ({@code chassisId}, {@code chassisIdType}, {@code systemName}, {@code portId},
     * {@code portIdType}, {@code portDescription}, each omitted when absent).
     */
    public record PortInfo(int port, String state, Integer stateId, String physState, Integer physStateId,
                           String rate, Long rateBytesPerSecond, String linkLayer, Integer lid, int gidCount,
                           String netdev, LldpNeighbor neighbor) {
    }

    public static List<DeviceInfo> info(List<IbDevice> devices) {
        return devices.stream().map(DevinfoFormat::info).toList();
    }

    static DeviceInfo info(IbDevice d) {
        return new DeviceInfo(d.name(), d.nodeType(), d.nodeTypeId() == 0 ? null : d.nodeTypeId(),
                d.fwVersion(), d.nodeGuid(), d.sysImageGuid(), d.hcaType(), d.boardId(), d.ports().size(),
                d.ports().stream().map(DevinfoFormat::info).toList());
    }

    static PortInfo info(IbPort p) {
        return new PortInfo(p.port(), p.state(), p.stateId() < 0 ? null : p.stateId(),
                p.physState(), p.physStateId() < 0 ? null : p.physStateId(), p.rate(), p.rateBytesPerSecond(),
                p.linkLayer(), parseLid(p.lid()), (int) p.gids().stream().filter(ShowGidsFormat::isShown).count(),
                p.netdev(), p.neighbor());
    }

    public static String text(List<IbDevice> devices) {
        StringBuilder out = new StringBuilder();
        for (DeviceInfo d : info(devices)) {
            line(out, 0, "hca_id", d.hcaId());
            if (d.nodeType() != null) {
                line(out, 1, "node_type", d.nodeType() + (d.nodeTypeId() == null ? "" : " (" + d.nodeTypeId() + ")"));
            }
            line(out, 1, "fw_ver", d.fwVersion());
            line(out, 1, "node_guid", d.nodeGuid());
            line(out, 1, "sys_image_guid", d.sysImageGuid());
            line(out, 1, "hca_type", d.hcaType());
            line(out, 1, "board_id", d.boardId());
            line(out, 1, "phys_port_cnt", String.valueOf(d.physPortCount()));
            for (PortInfo p : d.ports()) {
                line(out, 2, "port", String.valueOf(p.port()));
                if (p.stateId() != null) {
                    line(out, 3, "state", portStateName(p.stateId(), p.state()) + " (" + p.stateId() + ")");
                }
                if (p.physStateId() != null) {
                    line(out, 3, "phys_state",
                            physStateName(p.physStateId(), p.physState()) + " (" + p.physStateId() + ")");
                }
                line(out, 3, "rate", p.rate());
                line(out, 3, "port_lid", p.lid() == null ? null : String.valueOf(p.lid()));
                line(out, 3, "link_layer", p.linkLayer());
                line(out, 3, "gid_count", String.valueOf(p.gidCount()));
                line(out, 3, "netdev", p.netdev());
                line(out, 3, "lldp_neighbor", p.neighbor() == null ? null : neighborText(p.neighbor()));
                out.append('\n');
            }
        }
        return out.toString();
    }

    /**
     * The switch port in one line: {@code leaf-07 port Ethernet8 (chassis 1c:34:da:07:00:00)}; a switch without a system
     * name by its chassis id ({@code chassis f4:b5:2f:04:22:40 port 525}).
     */
    static String neighborText(LldpNeighbor n) {
        StringBuilder text = new StringBuilder();
        if (n.systemName() != null) {
            text.append(n.systemName());
        } else if (n.chassisId() != null) {
            text.append("chassis ").append(n.chassisId());
        }
        if (n.portId() != null) {
            text.append(text.isEmpty() ? "" : " ").append("port ").append(n.portId());
        }
        if (n.systemName() != null && n.chassisId() != null) {
            text.append(" (chassis ").append(n.chassisId()).append(')');
        }
        return text.toString();
    }

    /**
     * {@code key:} then tabs up to ibv_devinfo's value column: the value starts at the 5th tab
     * stop from the line start for device keys, like {@code "\tfw_ver:\t\t\t\t"}. Ports use the
     * same rule one and two levels deeper ({@code "\t\t\tstate:\t\t\t"}).
     */
    private static void line(StringBuilder out, int indent, String key, String value) {
        if (value == null || value.isEmpty()) {
            return;
        }
        out.append("\t".repeat(indent)).append(key).append(':');
        if (indent == 0 || indent == 2) {
            out.append('\t');
        } else {
            int column = 8 * indent + key.length() + 1;
            int valueColumn = indent == 1 ? 40 : 48;
            do {
                out.append('\t');
                column = (column / 8 + 1) * 8;
            } while (column < valueColumn);
        }
        out.append(value).append('\n');
    }

    /** ibv_devinfo's names: {@code PORT_ACTIVE} for the kernel's {@code ACTIVE}. */
    static String portStateName(int id, String kernelName) {
        return switch (id) {
            case 1 -> "PORT_DOWN";
            case 2 -> "PORT_INIT";
            case 3 -> "PORT_ARMED";
            case 4 -> "PORT_ACTIVE";
            case 5 -> "PORT_ACTIVE_DEFER";
            default -> kernelName == null ? "invalid state" : kernelName;
        };
    }

    /** ibv_devinfo's names: {@code LINK_UP} for the kernel's {@code LinkUp}. */
    static String physStateName(int id, String kernelName) {
        return switch (id) {
            case 1 -> "SLEEP";
            case 2 -> "POLLING";
            case 3 -> "DISABLED";
            case 4 -> "PORT_CONFIGURATION TRAINING";
            case 5 -> "LINK_UP";
            case 6 -> "LINK_ERROR_RECOVERY";
            case 7 -> "PHY TEST";
            default -> kernelName == null ? "invalid physical state" : kernelName;
        };
    }

    /** sysfs prints the LID as {@code 0x%x}; ibv_devinfo prints it in decimal. Null when unparsable. */
    static Integer parseLid(String lid) {
        if (lid == null) {
            return null;
        }
        String s = lid.strip();
        try {
            return s.startsWith("0x") || s.startsWith("0X") ? Integer.parseInt(s.substring(2), 16) : Integer.parseInt(s);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
