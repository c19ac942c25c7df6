package io.rdmamon.agent.kmsg;

import java.util.Objects;

/**
 * A kernel record the pattern table recognised: what happened and to which device.
 *
 * @param kind     what happened ({@code firmware_fatal}, {@code tx_timeout}, …: {@link KernelEventPatterns})
 * @param severity {@code critical}, {@code warning} or {@code info}
 * @param subject  the device the record names (PCI function, RDMA device or netdev); {@link Subject#NONE} when none
 * @param record   the record itself (its text is the evidence)
 */
public record KernelEvent(String kind, String severity, Subject subject, KmsgRecord record) {
    public KernelEvent {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(severity, "severity");
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(record, "record");
    }

    /**
     * The device a record names, as far as the record says: any of the three may be null.
     *
     * @param pci      the PCI function, {@code 0000:3b:00.0}
     * @param ibDevice the RDMA device, {@code mlx5_0}
     * @param netdev   the network interface, {@code eth2}
     */
    public record Subject(String pci, String ibDevice, String netdev) {
        public static final Subject NONE = new Subject(null, null, null);
    }
}
