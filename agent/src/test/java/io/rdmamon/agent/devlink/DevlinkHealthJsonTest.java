package io.rdmamon.agent.devlink;

import io.rdmamon.nativeio.devlink.HealthReporter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code devlink -j health show} outputs, real and odd, and what they parse into. */
class DevlinkHealthJsonTest {
    private static final String FILE = "devlink/health.json";

    static Stream<Arguments> outputs() {
        return Stream.of(
                // no devlink device (the build machine's kernel has devlink but no device, or none registers one)
                Arguments.of("{\"health\":{}}", List.of()),
                // iproute2's own example when it added the command (netdev, "devlink: Add devlink health show
                // command", Aya Levin, 2019): v5.0 named the reporter "name" and printed the dump time
                Arguments.of("{\"health\":{\"pci/0000:00:0a.0\":[{\"name\":\"tx\",\"state\":\"healthy\",\"error\":0,"
                                + "\"recover\":1,\"last_dump_date\":\"2019-Feb-14\",\"last_dump_time\":\"10:10:10\","
                                + "\"grace_period\":600,\"auto_recover\":true}]}}",
                        List.of(new HealthReporter("pci", "0000:00:0a.0", null, "tx", "healthy", 0, 1, 600L, true))),
                // mlx5 as devlink/devlink.c pr_out_health prints it today: fw and fw_fatal per function (no grace
                // period on fw), tx and rx on the uplink port; fw_fatal after one unrecovered fatal error
                // (the kernel's Documentation/networking/devlink/mlx5.rst lists the reporters)
                Arguments.of("{\"health\":{\"pci/0000:3b:00.0\":[{\"reporter\":\"fw\",\"state\":\"healthy\","
                                + "\"error\":0,\"recover\":0,\"auto_dump\":true},{\"reporter\":\"fw_fatal\","
                                + "\"state\":\"error\",\"error\":1,\"recover\":0,\"last_dump_date\":\"2026-11-28\","
                                + "\"last_dump_time\":\"22:01:13\",\"grace_period\":60000,\"auto_recover\":true,"
                                + "\"auto_dump\":true}],\"pci/0000:3b:00.0/65535\":[{\"reporter\":\"tx\","
                                + "\"state\":\"healthy\",\"error\":0,\"recover\":0,\"grace_period\":500,"
                                + "\"auto_recover\":true,\"auto_dump\":true},{\"reporter\":\"rx\",\"state\":\"healthy\","
                                + "\"error\":0,\"recover\":0,\"grace_period\":500,\"auto_recover\":true,"
                                + "\"auto_dump\":true}]}}",
                        List.of(new HealthReporter("pci", "0000:3b:00.0", null, "fw", "healthy", 0, 0, null, null),
                                new HealthReporter("pci", "0000:3b:00.0", null, "fw_fatal", "error", 1, 0, 60_000L,
                                        true),
                                new HealthReporter("pci", "0000:3b:00.0", 65535, "tx", "healthy", 0, 0, 500L, true),
                                new HealthReporter("pci", "0000:3b:00.0", 65535, "rx", "healthy", 0, 0, 500L, true))),
                // missing counters are 0; unknown keys (a newer iproute2's burst_period) ignored
                Arguments.of("{\"health\":{\"pci/0000:af:00.0\":[{\"reporter\":\"fw\",\"state\":\"error\","
                                + "\"burst_period\":0,\"vendor_extra\":{\"x\":1}}]},\"other\":1}",
                        List.of(new HealthReporter("pci", "0000:af:00.0", null, "fw", "error", 0, 0, null, null))),
                // a state iproute2 prints for one it does not know, and a reporter without a name: skipped
                Arguments.of("{\"health\":{\"pci/0000:af:00.0\":[{\"reporter\":\"fw\",\"state\":\"<unknown state>\","
                                + "\"error\":3},{\"state\":\"healthy\"}]}}",
                        List.of()));
    }

    @ParameterizedTest
    @MethodSource("outputs")
    void parses(String json, List<HealthReporter> expected) throws IOException {
        assertEquals(expected, DevlinkHealthJson.parse(json, FILE));
    }

    static Stream<Arguments> malformed() {
        return Stream.of(
                Arguments.of("{\"health\":{\"pci/0000:3b:00.0\":[{\"reporter\":", "not JSON"),
                Arguments.of("[]", "\"health\" object"),
                Arguments.of("{\"health\":[]}", "\"health\" object"),
                Arguments.of("{\"health\":{\"pci\":[]}}", "not a devlink handle"),
                Arguments.of("{\"health\":{\"pci/0000:3b:00.0/x\":[]}}", "not a devlink handle"),
                Arguments.of("{\"health\":{\"pci/0000:3b:00.0\":{}}}", "expected an array"));
    }

    @ParameterizedTest
    @MethodSource("malformed")
    void malformedOutputIsAnErrorNamingTheFile(String json, String reason) {
        IOException e = assertThrows(IOException.class, () -> DevlinkHealthJson.parse(json, FILE));
        assertTrue(e.getMessage().startsWith(FILE + ": ") && e.getMessage().contains(reason), e.getMessage());
    }
}
