package io.rdmamon.protocol.model;

import java.util.List;
import java.util.Map;

/**
 * The PCI function of an RDMA device (docs/reference/physical-layer.md §5): {@code
 * realpath(/sys/class/infiniband/<dev>/device)} walked
 * up to the first directory named like a PCI address. Link speed and width come from {@code current/max_link_speed}
 * and {@code current/max_link_width}, the AER counters from the {@code TOTAL_ERR_*} lines of {@code aer_dev_*}; for a
 * virtual function they are the physical function's ({@code physfn}), as a VF's own link fields mean nothing.
 *
 * <p>Absent is absent: a conventional-PCI function (virtio) has no link files, a kernel without CONFIG_PCIEAER or a
 * device without an AER capability no AER files; their values are null / missing and {@link #notes} says why.
 *
 * @param address                              the function's address ({@code 0000:3b:00.0})
 * @param physfn                               the physical function's address when this is a VF; null otherwise
 * @param linkFrom                             the address whose link and AER files were read (the PF of a VF)
 * @param currentLinkSpeed                     {@code current_link_speed} as printed; null when absent
 * @param maxLinkSpeed                         {@code max_link_speed} as printed; null when absent
 * @param currentLinkSpeedTransfersPerSecond   GT/s × 10⁹; null when absent or {@code Unknown}
 * @param maxLinkSpeedTransfersPerSecond       GT/s × 10⁹; null when absent or {@code Unknown}
 * @param currentLinkWidth                     lanes; null when absent or 0 (not trained)
 * @param maxLinkWidth                         lanes; null when absent or 0
 * @param aerErrors                            {@link #AER_SEVERITIES} totals that exist, counters (value slots on the
 * wire)
 * @param notes                                why something is absent, one line each (empty when all was there)
 */
public record PciFunction(String address, String physfn, String linkFrom, String currentLinkSpeed, String maxLinkSpeed,
                          Long currentLinkSpeedTransfersPerSecond, Long maxLinkSpeedTransfersPerSecond,
                          Integer currentLinkWidth, Integer maxLinkWidth, Map<String, Long> aerErrors,
                          List<String> notes) {
    /** The {@code severity} label values, in the order of the files {@code aer_dev_<severity>}. */
    public static final List<String> AER_SEVERITIES = List.of("correctable", "nonfatal", "fatal");

    public PciFunction {
        aerErrors = Maps.copyOrdered(aerErrors);
        notes = notes == null ? List.of() : List.copyOf(notes);
    }

    /** This function with other AER counters (the wire carries them as values, the rest in the layout). */
    public PciFunction withAerErrors(Map<String, Long> aerErrors) {
        return new PciFunction(address, physfn, linkFrom, currentLinkSpeed, maxLinkSpeed,
                currentLinkSpeedTransfersPerSecond, maxLinkSpeedTransfersPerSecond, currentLinkWidth, maxLinkWidth,
                aerErrors, notes);
    }

    /** Trained below what both ends can do: fewer lanes or a lower speed than the maximum (both known). */
    public boolean degraded() {
        return currentLinkWidth != null && maxLinkWidth != null && currentLinkWidth < maxLinkWidth
                || currentLinkSpeedTransfersPerSecond != null && maxLinkSpeedTransfersPerSecond != null
                && currentLinkSpeedTransfersPerSecond < maxLinkSpeedTransfersPerSecond;
    }
}
