package io.rdmamon.collector.changes;

import io.rdmamon.protocol.model.GidEntry;
import io.rdmamon.protocol.model.GpuTopology;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.QosConfig;
import io.rdmamon.protocol.model.TransceiverModule;
import io.rdmamon.protocol.wire.HostLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@link LayoutDiff}: one change of the layout at a time, and what the timeline says of it. */
class LayoutDiffTest {
    private static final long T = 1_764_000_000_000L;
    private static final TransceiverModule MODULE = module("MT2310FT00123");
    private static final QosConfig QOS = qos(0b0000_1000);
    private static final IbPort PORT = IbPort.builder().port(1).stateId(4).state("ACTIVE").physStateId(5)
            .physState("LinkUp").netdev("eth0").module(MODULE).qos(QOS)
            .gids(List.of(new GidEntry(3, "0000:0000:0000:0000:0000:ffff:0a00:0001", "RoCE v2", "eth0", "10.0.0.1")))
            .build();
    private static final IbDevice DEVICE = device("mlx5_0", "28.39.1002", PORT);

    static Stream<Arguments> changes() {
        return Stream.of(
                Arguments.of("nothing", (UnaryOperator<IbDevice>) d -> d, List.of()),
                Arguments.of("firmware upgraded", (UnaryOperator<IbDevice>) d -> device("mlx5_0", "28.41.1000", PORT),
                        List.of("firmware_changed info mlx5_0/0: firmware 28.39.1002 → 28.41.1000")),
                Arguments.of("link went down", port(p -> p.stateId(1).state("DOWN").physStateId(3).physState("Disabled")),
                        List.of("link_state warning mlx5_0/1: state ACTIVE/LinkUp → DOWN/Disabled")),
                Arguments.of("module pulled", port(p -> p.module(null)),
                        List.of("module_removed warning mlx5_0/1: module removed: NVIDIA MMA4Z00-NS serial MT2310FT00123")),
                Arguments.of("module swapped", port(p -> p.module(module("MT2402FT00999"))),
                        List.of("module_swapped info mlx5_0/1: module swapped: NVIDIA MMA4Z00-NS serial MT2310FT00123"
                                + " → NVIDIA MMA4Z00-NS serial MT2402FT00999")),
                Arguments.of("GID added", port(p -> p.gids(List.of(PORT.gids().get(0),
                                new GidEntry(4, "fe80:0000:0000:0000:0000:0000:0000:0001", "RoCE v2", "eth0", null)))),
                        List.of("gid_change info mlx5_0/1: GID table: 1 added, 0 removed +[4]"
                                + " fe80:0000:0000:0000:0000:0000:0000:0001 RoCE v2")),
                Arguments.of("PFC moved from priority 3 to 4", port(p -> p.qos(qos(0b0001_0000))),
                        List.of("qos_change warning mlx5_0/1: QoS pfc: Pfc[capability=8, enabledMask=8, delay=0]"
                                + " → Pfc[capability=8, enabledMask=16, delay=0]")),
                Arguments.of("device gone", (UnaryOperator<IbDevice>) d -> null,
                        List.of("device_vanished warning mlx5_0/0: device mlx5_0 vanished (1 port(s))")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("changes")
    void eachLayoutChangeIsOneLine(String name, UnaryOperator<IbDevice> change, List<String> expected) {
        IbDevice after = change.apply(DEVICE);
        assertEquals(expected, lines(LayoutDiff.diff("gpu-01", layout(List.of(DEVICE), null),
                layout(after == null ? List.of() : List.of(after), null), T)));
    }

    @Test
    void theFirstLayoutIsABaselineNotAChange() {
        assertEquals(List.of(), LayoutDiff.diff("gpu-01", null, layout(List.of(DEVICE), null), T));
    }

    @Test
    void aDeviceThatComesBackAppears() {
        assertEquals(List.of("device_appeared info mlx5_0/0: device mlx5_0 appeared (firmware 28.39.1002)"),
                lines(LayoutDiff.diff("gpu-01", layout(List.of(), null), layout(List.of(DEVICE), null), T)));
    }

    @Test
    void aGpuDirectVerdictChangeNamesTheReasonRaised() {
        GpuTopology ready = topology("ready", List.of());
        GpuTopology degraded = topology("degraded", List.of("acs_redirect"));
        assertEquals(List.of("topology_verdict warning mlx5_0/0: GPUDirect GPU0 ↔ mlx5_0: ready → degraded +acs_redirect"),
                lines(LayoutDiff.diff("gpu-01", layout(List.of(DEVICE), ready), layout(List.of(DEVICE), degraded), T)));
    }

    @Test
    void textFromTheHostIsEscapedAndCut() {
        IbDevice forged = device("mlx5_0", "\u001b[31m" + "9".repeat(1000), PORT);
        Change change = LayoutDiff.diff("gpu-01", layout(List.of(DEVICE), null), layout(List.of(forged), null), T).get(0);
        assertEquals(Change.MAX_TEXT_CHARS, change.text().length());
        assertEquals("firmware 28.39.1002 → \\u001b[31m999", change.text().substring(0, 35));
    }

    private static List<String> lines(List<Change> changes) {
        return changes.stream().map(c -> c.kind().id() + " " + c.severity().id() + " " + c.device() + "/" + c.port()
                + ": " + c.text()).toList();
    }

    private static UnaryOperator<IbDevice> port(UnaryOperator<IbPort.Builder> change) {
        return d -> device("mlx5_0", "28.39.1002", change.apply(PORT.toBuilder()).build());
    }

    private static IbDevice device(String name, String firmware, IbPort port) {
        return new IbDevice(name, 1, "CA", "0x1", "0x1", firmware, "MT4129", "MT_0000000838", List.of(port));
    }

    private static HostLayout layout(List<IbDevice> devices, GpuTopology topology) {
        return HostLayout.of(new HostSample("gpu-01", T, devices, List.of(), null, topology));
    }

    private static TransceiverModule module(String serial) {
        return new TransceiverModule("CMIS", 0x18, "OSFP", "NVIDIA", "MMA4Z00-NS", "A1", serial, "230310", 40.0, 3.3,
                List.of(), null, List.of());
    }

    private static QosConfig qos(int pfcMask) {
        return new QosConfig(QosConfig.SOURCE_NETLINK, null, new QosConfig.Pfc(8, pfcMask, 0), null, List.of(), null,
                null, null, null, null, null);
    }

    private static GpuTopology topology(String verdict, List<String> reasons) {
        return new GpuTopology(List.of(), List.of(), List.of(new GpuTopology.Pair("GPU0", "mlx5_0", "PIX", verdict, true,
                List.of(), reasons)), true, List.of());
    }
}
