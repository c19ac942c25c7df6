package io.rdmamon.nativeio.ethtool;

import static io.rdmamon.nativeio.netlink.NetlinkAbi.NETLINK_GENERIC;

import java.util.List;

import io.rdmamon.nativeio.Errno;
import io.rdmamon.nativeio.netlink.GenericNetlink;
import io.rdmamon.nativeio.netlink.JnrNetlink;
import io.rdmamon.nativeio.netlink.Netlink;
import io.rdmamon.nativeio.netlink.NetlinkAttribute;
import io.rdmamon.nativeio.netlink.NetlinkException;
import io.rdmamon.nativeio.netlink.NetlinkMessage;
import io.rdmamon.nativeio.netlink.NetlinkMessageBuilder;

/**
 * One half page of a module EEPROM through the ethtool genetlink {@code ETHTOOL_MSG_MODULE_EEPROM_GET}
 * (docs/reference/physical-layer.md §2.3): the only way to CMIS pages 01h-11h, since mlx5 refuses CMIS modules on the
 * ioctl
 * ({@code ETHTOOL_GMODULEINFO} answers EINVAL). The request goes to the kernel as given: its policy is the authority
 * (length 1..128 else ERANGE; page ≠ 0 below offset 128, or a read across a half page, EINVAL), and each refusal
 * comes back as an {@link EthtoolException} whose message names the request, the interface and what the errno means.
 * Needs CAP_NET_ADMIN. Blocking (one netlink exchange; the driver may do several firmware register reads).
 */
public final class NetlinkModuleEeprom {
    public static final String ETHTOOL_GENL_NAME = "ethtool";
    public static final int ETHTOOL_GENL_VERSION = 1;
    public static final int ETHTOOL_MSG_MODULE_EEPROM_GET = 31;
    public static final int ETHTOOL_MSG_MODULE_EEPROM_GET_REPLY = 32;
    /** {@code ETHTOOL_A_MODULE_EEPROM_*}. */
    public static final int ATTR_HEADER = 1;
    public static final int ATTR_OFFSET = 2;
    public static final int ATTR_LENGTH = 3;
    public static final int ATTR_PAGE = 4;
    public static final int ATTR_BANK = 5;
    public static final int ATTR_I2C_ADDRESS = 6;
    public static final int ATTR_DATA = 7;
    /** {@code ETHTOOL_A_HEADER_DEV_NAME} inside {@link #ATTR_HEADER}. */
    public static final int HEADER_DEV_NAME = 2;

    /**
     * What to read: {@code length} bytes at {@code offset} (0-255 of the 256-byte window of lower page + upper page
     * {@code page}) of bank {@code bank}, from the module at I2C address {@code i2cAddress} (0x50; SFF-8472's A2h
     * is 0x51).
     */
    public record PageRequest(int i2cAddress, int page, int bank, int offset, int length) {
        /** {@code page 0x11 bank 0 offset 128 length 128 i2c 0x50}: how error messages name the request. */
        @Override
        public String toString() {
            return String.format("page 0x%02x bank %d offset %d length %d i2c 0x%02x", page, bank, offset, length,
                    i2cAddress);
        }
    }

    private final Netlink netlink;
    private final GenericNetlink genl;

    public NetlinkModuleEeprom() {
        this(new JnrNetlink());
    }

    public NetlinkModuleEeprom(Netlink netlink) {
        this.netlink = netlink;
        this.genl = new GenericNetlink(netlink);
    }

    /** The generic netlink id of the "ethtool" family (resolved once). */
    public int familyId() throws EthtoolException {
        try {
            return genl.familyId(ETHTOOL_GENL_NAME);
        } catch (NetlinkException e) {
            throw new EthtoolException(null, e.errno(), e.errno() == Errno.ENOENT
                    ? "no ethtool netlink in this kernel (generic netlink family \"ethtool\" absent, ENOENT)"
                    : e.getMessage());
        }
    }

    /** The request as the kernel receives it (tests check the layout). */
    static NetlinkMessageBuilder request(int familyId, String ifname, PageRequest page) {
        NetlinkMessageBuilder request = GenericNetlink.request(familyId, ETHTOOL_MSG_MODULE_EEPROM_GET,
                ETHTOOL_GENL_VERSION);
        int header = request.beginNested(ATTR_HEADER);
        request.stringZ(HEADER_DEV_NAME, ifname).endNested(header);
        return request.u32(ATTR_OFFSET, page.offset()).u32(ATTR_LENGTH, page.length()).u8(ATTR_PAGE, page.page())
                .u8(ATTR_BANK, page.bank()).u8(ATTR_I2C_ADDRESS, page.i2cAddress());
    }

    /**
     * The bytes of {@code page} on {@code ifname}: exactly {@code page.length()} of them.
     *
     * @throws EthtoolException the kernel's refusal, named (see the class comment), or a reply without the data
     */
    public byte[] read(String ifname, PageRequest page) throws EthtoolException {
        String description = "ETHTOOL_MSG_MODULE_EEPROM_GET " + page + " on " + ifname;
        try {
            List<NetlinkMessage> reply = netlink.exchange(NETLINK_GENERIC, request(familyId(), ifname, page),
                    description);
            if (reply.isEmpty()) {
                throw NetlinkException.malformed(description + ": no reply message");
            }
            NetlinkAttribute data = NetlinkAttribute.first(
                    reply.get(0).attributes(GenericNetlink.GENL_HDRLEN, description + " reply"), ATTR_DATA);
            if (data == null) {
                throw NetlinkException.malformed(description + " reply: no ETHTOOL_A_MODULE_EEPROM_DATA");
            }
            byte[] bytes = data.bytes();
            if (bytes.length != page.length()) {
                throw NetlinkException.malformed(description + " reply: " + bytes.length + " bytes of data, "
                        + page.length() + " asked for");
            }
            return bytes;
        } catch (NetlinkException e) {
            throw new EthtoolException(ifname, e.errno(), reason(description, ifname, e));
        }
    }

    static String reason(String description, String ifname, NetlinkException e) {
        String kernel = e.kernelMessage() == null ? "" : " (kernel: " + e.kernelMessage() + ")";
        return switch (e.errno()) {
            case Errno.EOPNOTSUPP -> description + ": no module EEPROM on " + ifname
                    + " (EOPNOTSUPP: a driver without module cages, or a kernel before 5.13)" + kernel;
            case Errno.ENODEV -> "no such interface " + ifname + " (ENODEV)";
            case Errno.ERANGE -> description + ": refused by the kernel's policy (ERANGE: length must be 1..128, "
                    + "offset at most 255, i2c address at most 0x7f)" + kernel;
            case Errno.EINVAL -> description + ": refused (EINVAL: a page other than 0 is read from offset 128 on, "
                    + "and a read stays within one half page; or the driver does not know the page)" + kernel;
            case Errno.EPERM, Errno.EACCES -> description + ": reading a module EEPROM needs CAP_NET_ADMIN ("
                    + Errno.name(e.errno()) + ")";
            default -> e.getMessage();
        };
    }
}
