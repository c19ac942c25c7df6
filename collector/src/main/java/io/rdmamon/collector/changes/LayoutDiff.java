package io.rdmamon.collector.changes;

import io.rdmamon.collector.diagnosis.engine.TopologyLedger;
import io.rdmamon.protocol.model.GidEntry;
import io.rdmamon.protocol.model.QosConfig;
import io.rdmamon.protocol.model.TransceiverModule;
import io.rdmamon.protocol.wire.HostLayout;
import io.rdmamon.protocol.wire.HostLayout.DeviceLayout;
import io.rdmamon.protocol.wire.HostLayout.PortLayout;

import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What changed between two successive layouts of one node ({@link HostLayout}: the sample without its counter
 * values): devices that vanished or appeared, firmware, port states, transceiver modules, GID tables, the QoS
 * configuration key by key, and the GPUDirect RDMA verdicts. Pure; O(the two layouts).
 */
public final class LayoutDiff {
    private static final String ARROW = " → ";

    private LayoutDiff() {
    }

    /** The changes from {@code before} (null: the node's first layout, a baseline with nothing to compare) to {@code after}. */
    public static List<Change> diff(String node, HostLayout before, HostLayout after, long timeMillis) {
        List<Change> out = new ArrayList<>();
        if (before == null) {
            return out;
        }
        Map<String, DeviceLayout> old = byName(before);
        Map<String, DeviceLayout> now = byName(after);
        old.forEach((name, device) -> {
            if (!now.containsKey(name)) {
                out.add(new Change(timeMillis, node, name, 0, ChangeKind.DEVICE_VANISHED, ChangeSeverity.WARNING,
                        "device " + name + " vanished (" + device.ports().size() + " port(s))"));
            }
        });
        now.forEach((name, device) -> {
            DeviceLayout was = old.get(name);
            if (was == null) {
                out.add(new Change(timeMillis, node, name, 0, ChangeKind.DEVICE_APPEARED, ChangeSeverity.INFO,
                        "device " + name + " appeared (firmware " + device.fwVersion() + ")"));
            } else {
                device(node, was, device, timeMillis, out);
            }
        });
        for (TopologyLedger.Change change : TopologyLedger.changes(before.topology(), after.topology(), timeMillis)) {
            out.add(new Change(timeMillis, node, change.nic(), 0, ChangeKind.TOPOLOGY_VERDICT,
                    "ready".equals(change.to()) ? ChangeSeverity.INFO : ChangeSeverity.WARNING,
                    "GPUDirect " + change.gpu() + " ↔ " + change.nic() + ": " + change.from() + ARROW + change.to()
                            + reasons(" +", change.raised()) + reasons(" −", change.cleared())));
        }
        return out;
    }

    private static void device(String node, DeviceLayout was, DeviceLayout device, long time, List<Change> out) {
        String name = device.name();
        if (!Objects.equals(was.fwVersion(), device.fwVersion())) {
            out.add(new Change(time, node, name, 0, ChangeKind.FIRMWARE_CHANGED, ChangeSeverity.INFO,
                    "firmware " + was.fwVersion() + ARROW + device.fwVersion()));
        }
        Map<Integer, PortLayout> oldPorts = new LinkedHashMap<>();
        was.ports().forEach(p -> oldPorts.put(p.port(), p));
        for (PortLayout port : device.ports()) {
            PortLayout before = oldPorts.get(port.port());
            if (before != null) {
                port(node, name, before, port, time, out);
            }
        }
    }

    private static void port(String node, String device, PortLayout was, PortLayout port, long time, List<Change> out) {
        int number = port.port();
        if (was.stateId() != port.stateId() || was.physStateId() != port.physStateId()) {
            out.add(new Change(time, node, device, number, ChangeKind.LINK_STATE,
                    "ACTIVE".equals(port.state()) ? ChangeSeverity.INFO : ChangeSeverity.WARNING,
                    "state " + was.state() + "/" + was.physState() + ARROW + port.state() + "/" + port.physState()));
        }
        module(node, device, number, module(was), module(port), time, out);
        gids(node, device, number, was.gids(), port.gids(), time, out);
        if (was.qos() != null && port.qos() != null && !was.qos().equals(port.qos())) {
            for (RecordComponent key : QosConfig.class.getRecordComponents()) {
                Object from = value(key, was.qos());
                Object to = value(key, port.qos());
                if (!key.getName().equals("source") && !Objects.equals(from, to)) {
                    out.add(new Change(time, node, device, number, ChangeKind.QOS_CHANGE, ChangeSeverity.WARNING,
                            "QoS " + key.getName() + ": " + from + ARROW + to));
                }
            }
        }
    }

    private static void module(String node, String device, int port, TransceiverModule was, TransceiverModule now,
                               long time, List<Change> out) {
        if (was == null && now != null) {
            out.add(new Change(time, node, device, port, ChangeKind.MODULE_INSERTED, ChangeSeverity.INFO,
                    "module inserted: " + describe(now)));
        } else if (was != null && now == null) {
            out.add(new Change(time, node, device, port, ChangeKind.MODULE_REMOVED, ChangeSeverity.WARNING,
                    "module removed: " + describe(was)));
        } else if (was != null && !Objects.equals(was.serial(), now.serial())) {
            out.add(new Change(time, node, device, port, ChangeKind.MODULE_SWAPPED, ChangeSeverity.INFO,
                    "module swapped: " + describe(was) + ARROW + describe(now)));
        }
    }

    private static void gids(String node, String device, int port, List<GidEntry> was, List<GidEntry> now, long time,
                             List<Change> out) {
        if (was.equals(now)) {
            return;
        }
        Set<GidEntry> added = new LinkedHashSet<>(now);
        was.forEach(added::remove);
        Set<GidEntry> removed = new LinkedHashSet<>(was);
        now.forEach(removed::remove);
        out.add(new Change(time, node, device, port, ChangeKind.GID_CHANGE, ChangeSeverity.INFO,
                "GID table: " + added.size() + " added, " + removed.size() + " removed" + first(" +", added)
                        + first(" −", removed)));
    }

    private static String first(String sign, Set<GidEntry> entries) {
        if (entries.isEmpty()) {
            return "";
        }
        GidEntry e = entries.iterator().next();
        return sign + "[" + e.index() + "] " + e.gid() + " " + e.type() + (entries.size() > 1 ? " …" : "");
    }

    private static String describe(TransceiverModule module) {
        return module.vendor() + " " + module.part() + " serial " + module.serial();
    }

    private static String reasons(String sign, List<String> reasons) {
        return reasons.isEmpty() ? "" : sign + String.join(",", reasons);
    }

    private static TransceiverModule module(PortLayout port) {
        return port.module() == null ? null : port.module().module();
    }

    private static Object value(RecordComponent key, QosConfig qos) {
        try {
            return key.getAccessor().invoke(qos);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("record accessor " + key.getName(), e); // public accessors of a record
        }
    }

    private static Map<String, DeviceLayout> byName(HostLayout layout) {
        Map<String, DeviceLayout> devices = new LinkedHashMap<>();
        layout.devices().forEach(d -> devices.put(d.name(), d));
        return devices;
    }
}
