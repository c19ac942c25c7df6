package io.rdmamon.nativeio.dcb;

/** A netdev's DCB configuration as the kernel reports it. Implementations: {@link NetlinkDcb}. */
public interface Dcb {

    /**
     * {@code DCB_CMD_IEEE_GET} for {@code ifname} (in the calling thread's network namespace), with the DCBX mode
     * from {@code DCB_CMD_GDCBX} when the IEEE reply lacks it.
     *
     * @throws DcbException naming the interface: {@code no DCB support on X (EOPNOTSUPP)} for a netdev without DCB
     *                      (veth, a VF), {@code no such interface X (ENODEV)}, an invalid name (errno 0), a malformed
     *                      reply (errno 0) or another errno
     */
    IeeeDcbConfig ieeeConfig(String ifname) throws DcbException;
}
