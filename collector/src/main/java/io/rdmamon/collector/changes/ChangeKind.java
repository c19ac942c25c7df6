package io.rdmamon.collector.changes;

import java.util.Locale;

/** What a {@link Change} is; the id is the {@code kind} of {@code /api/events} and of {@code rdma_node_changes_total}. */
public enum ChangeKind {
    /** A link counter rose between two samples (the flap ledger's entry). */
    LINK_FLAP,
    /** A port's logical state changed (e.g. ACTIVE to DOWN). */
    LINK_STATE,
    /** A device the previous sample had is gone. */
    DEVICE_VANISHED,
    /** A device the previous sample did not have is there (new, or back). */
    DEVICE_APPEARED,
    MODULE_INSERTED,
    MODULE_REMOVED,
    /** The module's serial changed between two samples: another module in the cage. */
    MODULE_SWAPPED,
    FIRMWARE_CHANGED,
    GID_CHANGE,
    /** One key of a port's QoS configuration, from what to what. */
    QOS_CHANGE,
    /** A GPU↔NIC pair's GPUDirect RDMA verdict or reasons changed (docs/topology.md). */
    TOPOLOGY_VERDICT,
    /** The agent's {@code Hello.instance} changed: another run of it. */
    AGENT_RESTART,
    DIAGNOSIS_RAISED,
    DIAGNOSIS_CLEARED,
    /** A kernel log record, entered through {@link ChangeLog#record}. */
    KERNEL_EVENT,
    /** A devlink health reporter's transition, entered through {@link ChangeLog#record}. */
    DEVLINK_REPORTER;

    /** The contract string: {@code link_flap}, {@code module_swapped}, … */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The kind with this id.
     *
     * @throws IllegalArgumentException naming the value
     */
    public static ChangeKind fromId(String id) {
        for (ChangeKind kind : values()) {
            if (kind.id().equals(id)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("unknown kind '" + id + "'");
    }
}
