package io.rdmamon.nativeio.ethtool;

import static io.rdmamon.nativeio.ethtool.EthtoolAbi.AF_INET;
import static io.rdmamon.nativeio.ethtool.EthtoolAbi.ETHTOOL_GDRVINFO;
import static io.rdmamon.nativeio.ethtool.EthtoolAbi.ETHTOOL_GFECPARAM;
import static io.rdmamon.nativeio.ethtool.EthtoolAbi.ETHTOOL_GMODULEEEPROM;
import static io.rdmamon.nativeio.ethtool.EthtoolAbi.ETHTOOL_GMODULEINFO;
import static io.rdmamon.nativeio.ethtool.EthtoolAbi.MAX_MODULE_EEPROM_LEN;
import static io.rdmamon.nativeio.ethtool.EthtoolAbi.ETHTOOL_GSSET_INFO;
import static io.rdmamon.nativeio.ethtool.EthtoolAbi.ETHTOOL_GSTATS;
import static io.rdmamon.nativeio.ethtool.EthtoolAbi.ETHTOOL_GSTRINGS;
import static io.rdmamon.nativeio.ethtool.EthtoolAbi.ETH_GSTRING_LEN;
import static io.rdmamon.nativeio.ethtool.EthtoolAbi.ETH_SS_STATS;
import static io.rdmamon.nativeio.ethtool.EthtoolAbi.SIOCETHTOOL;
import static io.rdmamon.nativeio.ethtool.EthtoolAbi.SOCK_CLOEXEC;
import static io.rdmamon.nativeio.ethtool.EthtoolAbi.SOCK_DGRAM;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;

import io.rdmamon.nativeio.Errno;
import io.rdmamon.nativeio.InterfaceNames;
import io.rdmamon.nativeio.LibC;
import io.rdmamon.nativeio.NativeSupport;
import io.rdmamon.nativeio.ethtool.EthtoolAbi.EthtoolDrvinfo;
import io.rdmamon.nativeio.ethtool.EthtoolAbi.EthtoolEeprom;
import io.rdmamon.nativeio.ethtool.EthtoolAbi.EthtoolFecparam;
import io.rdmamon.nativeio.ethtool.EthtoolAbi.EthtoolModinfo;
import io.rdmamon.nativeio.ethtool.EthtoolAbi.EthtoolGstrings;
import io.rdmamon.nativeio.ethtool.EthtoolAbi.EthtoolSsetInfo;
import io.rdmamon.nativeio.ethtool.EthtoolAbi.EthtoolStats;
import io.rdmamon.nativeio.ethtool.EthtoolAbi.IfReq;
import jnr.ffi.Memory;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;
import jnr.ffi.Struct;

/**
 * {@link Ethtool} through the {@code SIOCETHTOOL} ioctl, as {@code ethtool -S} does it:
 * {@code ETHTOOL_GSSET_INFO} for the count, {@code ETHTOOL_GSTRINGS} for the names,
 * {@code ETHTOOL_GSTATS} for the values, retried while the count changes underneath
 * ({@link StatsCountRace}). Reads the network namespace of the calling thread.
 *
 * <p>Thread safe: every call opens its own socket and buffers; libc is bound once, lazily.
 * No privilege is needed for these commands (the kernel lets anyone run them).
 */
public final class JnrEthtool implements Ethtool {

    @Override
    public LinkedHashMap<String, Long> stats(String ifname) throws EthtoolException {
        try (EthtoolSocket socket = EthtoolSocket.open(ifname)) {
            long lastAsked = 0;
            long lastAnswered = 0;
            for (int attempt = 1; attempt <= StatsCountRace.MAX_ATTEMPTS; attempt++) {
                int count = socket.statsCount();
                if (count == 0) {
                    return new LinkedHashMap<>();
                }
                int capacity = StatsCountRace.capacity(count);

                EthtoolGstrings strings = socket.struct(new EthtoolGstrings(socket.runtime),
                        (long) capacity * ETH_GSTRING_LEN);
                strings.cmd.set(ETHTOOL_GSTRINGS);
                strings.string_set.set(ETH_SS_STATS);
                strings.len.set(count);
                socket.call("ETHTOOL_GSTRINGS", strings);
                long answered = strings.len.get();
                if (!accepted(socket, count, answered, capacity)) {
                    lastAsked = count;
                    lastAnswered = answered;
                    continue;
                }

                EthtoolStats stats = socket.struct(new EthtoolStats(socket.runtime), (long) capacity * Long.BYTES);
                stats.cmd.set(ETHTOOL_GSTATS);
                stats.n_stats.set(count);
                socket.call("ETHTOOL_GSTATS", stats);
                answered = stats.n_stats.get();
                if (!accepted(socket, count, answered, capacity)) {
                    lastAsked = count;
                    lastAnswered = answered;
                    continue;
                }
                return decode(Struct.getMemory(strings), Struct.size(strings),
                        Struct.getMemory(stats), Struct.size(stats), count);
            }
            throw new EthtoolException(ifname, 0, "ethtool statistics of interface '" + ifname
                    + "': the driver's statistics count kept changing during " + StatsCountRace.MAX_ATTEMPTS
                    + " attempts (last asked " + lastAsked + ", kernel answered " + lastAnswered + ")");
        }
    }

    @Override
    public DriverInfo driverInfo(String ifname) throws EthtoolException {
        try (EthtoolSocket socket = EthtoolSocket.open(ifname)) {
            EthtoolDrvinfo info = socket.struct(new EthtoolDrvinfo(socket.runtime), 0);
            info.cmd.set(ETHTOOL_GDRVINFO);
            socket.call("ETHTOOL_GDRVINFO", info);
            return new DriverInfo(info.driver.get(), info.version.get(), info.fw_version.get(),
                    info.bus_info.get(), (int) info.n_stats.get());
        }
    }

    @Override
    public ModuleEeprom moduleEeprom(String ifname) throws EthtoolException {
        try (EthtoolSocket socket = EthtoolSocket.open(ifname)) {
            EthtoolModinfo info = socket.struct(new EthtoolModinfo(socket.runtime), 0);
            info.cmd.set(ETHTOOL_GMODULEINFO);
            socket.call("ETHTOOL_GMODULEINFO", info);
            long length = info.eeprom_len.get();
            if (length == 0 || length > MAX_MODULE_EEPROM_LEN) {
                throw new EthtoolException(ifname, 0, "ethtool ETHTOOL_GMODULEINFO on interface '" + ifname
                        + "': implausible module EEPROM length " + length + " (type " + info.type.get() + ")");
            }
            EthtoolEeprom eeprom = socket.struct(new EthtoolEeprom(socket.runtime), length);
            eeprom.cmd.set(ETHTOOL_GMODULEEEPROM);
            eeprom.offset.set(0);
            eeprom.len.set(length);
            socket.call("ETHTOOL_GMODULEEEPROM", eeprom);
            byte[] bytes = new byte[(int) length];
            Struct.getMemory(eeprom).get(Struct.size(eeprom), bytes, 0, bytes.length);
            return new ModuleEeprom((int) info.type.get(), bytes);
        }
    }

    @Override
    public FecParam fecParam(String ifname) throws EthtoolException {
        try (EthtoolSocket socket = EthtoolSocket.open(ifname)) {
            EthtoolFecparam fec = socket.struct(new EthtoolFecparam(socket.runtime), 0);
            fec.cmd.set(ETHTOOL_GFECPARAM);
            socket.call("ETHTOOL_GFECPARAM", fec);
            return new FecParam((int) fec.active_fec.get(), (int) fec.fec.get());
        }
    }

    /**
     * Rejects what the kernel's {@code dev_valid_name()} rejects, before any system call, so that a
     * bad name is reported as such and never truncated into another interface's name.
     */
    static void validateInterfaceName(String ifname) throws EthtoolException {
        String problem = InterfaceNames.problem(ifname);
        if (problem != null) {
            throw new EthtoolException(ifname, 0, "invalid interface name '" + ifname + "': " + problem);
        }
    }

    private static boolean accepted(EthtoolSocket socket, int asked, long answered, int capacity)
            throws EthtoolException {
        switch (StatsCountRace.verdict(asked, answered, capacity)) {
            case ACCEPT:
                return true;
            case RETRY:
                return false;
            default:
                throw new EthtoolException(socket.ifname, 0, "ethtool statistics of interface '" + socket.ifname
                        + "': the kernel wrote " + answered + " entries into a buffer of " + capacity
                        + " (kernel without the ethtool stats bounds check, count grew by more than the slack)");
        }
    }

    /** Names in kernel order, each cut at its first NUL; a name the driver repeats keeps its first value. */
    private static LinkedHashMap<String, Long> decode(Pointer strings, int stringsOffset,
                                                      Pointer values, int valuesOffset, int count) {
        byte[] names = new byte[count * ETH_GSTRING_LEN];
        strings.get(stringsOffset, names, 0, names.length);
        long[] numbers = new long[count];
        values.get(valuesOffset, numbers, 0, count);
        LinkedHashMap<String, Long> result = new LinkedHashMap<>(Math.max(16, count * 2));
        for (int i = 0; i < count; i++) {
            int start = i * ETH_GSTRING_LEN;
            int end = start;
            while (end < start + ETH_GSTRING_LEN && names[end] != 0) {
                end++;
            }
            result.putIfAbsent(new String(names, start, end - start, StandardCharsets.UTF_8), numbers[i]);
        }
        return result;
    }

    /** One AF_INET datagram socket used for the ioctls on one interface; closed by try-with-resources. */
    private static final class EthtoolSocket implements AutoCloseable {
        final String ifname;
        final Runtime runtime;
        private final LibC libc;
        private final int fd;
        private final IfReq ifreq;

        private EthtoolSocket(String ifname, Runtime runtime, LibC libc, int fd) {
            this.ifname = ifname;
            this.runtime = runtime;
            this.libc = libc;
            this.fd = fd;
            this.ifreq = struct(new IfReq(runtime), 0);
            byte[] name = ifname.getBytes(StandardCharsets.UTF_8);
            for (int i = 0; i < name.length; i++) {
                ifreq.ifr_name[i].set(name[i]);
            }
        }

        static EthtoolSocket open(String ifname) throws EthtoolException {
            validateInterfaceName(ifname);
            var unsupported = NativeSupport.unsupportedReason();
            if (unsupported.isPresent()) {
                throw new EthtoolException(ifname, 0, "ethtool on interface '" + ifname + "': " + unsupported.get());
            }
            LibC libc = NativeSupport.libc();
            int fd = libc.socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
            if (fd < 0) {
                int errno = Errno.last();
                throw new EthtoolException(ifname, errno, "socket(AF_INET, SOCK_DGRAM) for ethtool on interface '"
                        + ifname + "' failed: " + Errno.describe(errno));
            }
            return new EthtoolSocket(ifname, Runtime.getSystemRuntime(), libc, fd);
        }

        /** Binds {@code struct} to fresh zeroed native memory with {@code payload} bytes after it. */
        <S extends Struct> S struct(S struct, long payload) {
            struct.useMemory(Memory.allocateDirect(runtime, Math.toIntExact(Struct.size(struct) + payload), true));
            return struct;
        }

        /** {@code ioctl(fd, SIOCETHTOOL, &ifreq)} with {@code ifr_data} pointing at {@code command}. */
        void call(String commandName, Struct command) throws EthtoolException {
            ifreq.ifr_data.set(Struct.getMemory(command));
            if (libc.ioctl(fd, SIOCETHTOOL, Struct.getMemory(ifreq)) < 0) {
                int errno = Errno.last();
                throw new EthtoolException(ifname, errno, "ethtool " + commandName + " on interface '" + ifname
                        + "' failed: " + Errno.describe(errno));
            }
        }

        /**
         * The number of {@code ETH_SS_STATS} strings. A driver without statistics makes the kernel's
         * per-set count fail (-EOPNOTSUPP for drivers without {@code get_sset_count}, e.g. loopback),
         * which {@code ETHTOOL_GSSET_INFO} reports only by leaving the set's bit clear.
         */
        int statsCount() throws EthtoolException {
            EthtoolSsetInfo info = struct(new EthtoolSsetInfo(runtime), Integer.BYTES);
            info.cmd.set(ETHTOOL_GSSET_INFO);
            info.sset_mask.set(1L << ETH_SS_STATS);
            call("ETHTOOL_GSSET_INFO", info);
            if ((info.sset_mask.get() & (1L << ETH_SS_STATS)) == 0) {
                throw new EthtoolException(ifname, Errno.EOPNOTSUPP, "ethtool ETHTOOL_GSSET_INFO on interface '"
                        + ifname + "': the driver has no statistics: " + Errno.describe(Errno.EOPNOTSUPP));
            }
            long count = Integer.toUnsignedLong(Struct.getMemory(info).getInt(Struct.size(info)));
            // A count this large is not a real driver's and would overflow the buffer sizes.
            if (count > 1_000_000) {
                throw new EthtoolException(ifname, 0, "ethtool ETHTOOL_GSSET_INFO on interface '" + ifname
                        + "': implausible statistics count " + count);
            }
            return (int) count;
        }

        @Override
        public void close() {
            libc.close(fd);
        }
    }
}
