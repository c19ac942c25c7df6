package io.rdmamon.agent.topology;

/**
 * What a function's {@code config} said (see {@link ConfigSpace}).
 *
 * @param readableBytes how many bytes the read returned
 * @param unknown       non-null when nothing beyond the header could be read: why (then the rest is null/false and
 *                      means nothing)
 * @param pciExpress    a PCI Express capability was found
 * @param devCtl        its Device Control register; null without the capability
 * @param extended      extended configuration space (beyond 256 bytes) was readable
 * @param acs           the ACS Control register; null when the function has no ACS capability
 * @param ats           the function has an ATS capability
 */
public record ConfigFacts(int readableBytes, String unknown, boolean pciExpress, DeviceControl devCtl,
                          boolean extended, AcsControl acs, boolean ats) {

    static ConfigFacts unknown(String why) {
        return new ConfigFacts(0, why, false, null, false, null, false);
    }

    /** No {@code config} file at all (a capture without it). */
    public static ConfigFacts absent() {
        return unknown("config not present");
    }

    public boolean known() {
        return unknown == null;
    }
}
