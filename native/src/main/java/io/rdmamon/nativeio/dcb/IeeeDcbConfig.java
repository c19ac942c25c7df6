package io.rdmamon.nativeio.dcb;

import java.util.List;

/**
 * The {@code DCB_CMD_IEEE_GET} reply of one netdev, mirroring the uapi structs of {@code <linux/dcbnl.h>} field by
 * field (names in camel case). A part the driver did not report (no op, or its op failed: the kernel then omits the
 * attribute) is null; the APP table is always present on the wire and is an empty list when it holds nothing.
 * u8 arrays are lists of 8 ints, u32/u64 arrays lists of 8 longs (u64 with unsigned semantics).
 *
 * @param ifname       the interface asked about
 * @param dcbx         {@code DCB_ATTR_DCBX} ({@code DCB_CAP_DCBX_*} bits), from IEEE_GET or else {@code DCB_CMD_GDCBX};
 *                     null when the driver has no {@code getdcbx}
 * @param ets          {@code DCB_ATTR_IEEE_ETS}
 * @param pfc          {@code DCB_ATTR_IEEE_PFC}
 * @param appTable     {@code DCB_ATTR_IEEE_APP_TABLE} in kernel order, entries of both types
 *                     ({@code DCB_ATTR_IEEE_APP} 1 and {@code DCB_ATTR_DCB_APP} 2)
 * @param appTrust     {@code DCB_ATTR_DCB_APP_TRUST_TABLE}: selectors in trust order; null when absent (older kernels,
 *                     drivers without {@code dcbnl_getapptrust} such as mlx5)
 * @param rewriteTable {@code DCB_ATTR_DCB_REWR_TABLE}; null on kernels without it
 * @param buffer       {@code DCB_ATTR_DCB_BUFFER}
 * @param tcMaxrate    {@code DCB_ATTR_IEEE_MAXRATE}: {@code struct ieee_maxrate.tc_maxrate}, kbit/s per TC, 0 = unlimited
 */
public record IeeeDcbConfig(String ifname, Integer dcbx, IeeeEts ets, IeeePfc pfc, List<DcbApp> appTable,
                            List<Integer> appTrust, List<DcbApp> rewriteTable, DcbBuffer buffer,
                            List<Long> tcMaxrate) {

    public IeeeDcbConfig {
        appTable = List.copyOf(appTable);
        appTrust = appTrust == null ? null : List.copyOf(appTrust);
        rewriteTable = rewriteTable == null ? null : List.copyOf(rewriteTable);
        tcMaxrate = tcMaxrate == null ? null : List.copyOf(tcMaxrate);
    }

    /** The same configuration with {@code dcbx} set (from {@code DCB_CMD_GDCBX}). */
    public IeeeDcbConfig withDcbx(Integer dcbx) {
        return new IeeeDcbConfig(ifname, dcbx, ets, pfc, appTable, appTrust, rewriteTable, buffer, tcMaxrate);
    }

    /**
     * {@code struct ieee_ets} (59 bytes). TSA codes: 0 strict, 1 credit-based shaper, 2 ETS, 255 vendor.
     * {@code prioTc}: index = priority, value = traffic class.
     */
    public record IeeeEts(int willing, int etsCap, int cbs, List<Integer> tcTxBw, List<Integer> tcRxBw,
                          List<Integer> tcTsa, List<Integer> prioTc, List<Integer> tcRecoBw, List<Integer> tcRecoTsa,
                          List<Integer> recoPrioTc) {
        public IeeeEts {
            tcTxBw = List.copyOf(tcTxBw);
            tcRxBw = List.copyOf(tcRxBw);
            tcTsa = List.copyOf(tcTsa);
            prioTc = List.copyOf(prioTc);
            tcRecoBw = List.copyOf(tcRecoBw);
            tcRecoTsa = List.copyOf(tcRecoTsa);
            recoPrioTc = List.copyOf(recoPrioTc);
        }
    }

    /**
     * {@code struct ieee_pfc} (136 bytes): {@code pfcEn} bit p = PFC on priority p; {@code delay} in bit times (mlx5
     * puts the cable length in metres there); {@code requests}/{@code indications} = PFC frames sent/received per
     * priority.
     */
    public record IeeePfc(int pfcCap, int pfcEn, int mbc, int delay, List<Long> requests, List<Long> indications) {
        public IeeePfc {
            requests = List.copyOf(requests);
            indications = List.copyOf(indications);
        }
    }

    /**
     * {@code struct dcb_app} (4 bytes): selector 1 ethertype, 2 TCP/SCTP port, 3 UDP/DCCP port, 4 any port, 5 DSCP,
     * 255 PCP; protocol = the DSCP, ethertype, port or PCP+DEI.
     */
    public record DcbApp(int selector, int priority, int protocol) {
    }

    /** {@code struct dcbnl_buffer} (44 bytes): prio2buffer per priority, buffer_size per buffer in bytes. */
    public record DcbBuffer(List<Integer> prio2buffer, List<Long> bufferSize, long totalSize) {
        public DcbBuffer {
            prio2buffer = List.copyOf(prio2buffer);
            bufferSize = List.copyOf(bufferSize);
        }
    }
}
