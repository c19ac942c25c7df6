package io.rdmamon.agent.qos;

import io.rdmamon.agent.capability.UnsupportedCapabilityException;
import io.rdmamon.protocol.model.QosConfig;
import io.rdmamon.protocol.model.QosConfig.AppEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code dcb -j} captures as iproute2 6.1 and 6.5+ print them (docs/reference/qos-dcb.md §5); PFC on priority 4, RoCE
 * DSCP 34. */
class CapturedDcbSourceTest {
    private static final String IF = "enp65s0f1np1";
    private static final String PFC = """
            {"pfc_cap":8,"macsec_bypass":false,"delay":12,"prio_pfc":[false,false,false,false,true,false,false,false]}
            """;
    private static final String ETS = """
            {"willing":false,"ets_cap":8,"cbs":false,"tc_bw":[10,0,0,0,90,0,0,0],"pg_bw":[0,0,0,0,0,0,0,0],
             "tc_tsa":["ets","strict","strict","strict","ets","strict","strict","vendor"],
             "prio_tc":[0,1,2,3,4,5,6,7],"reco_tc_bw":[0,0,0,0,0,0,0,0],
             "reco_tc_tsa":["strict","strict","strict","strict","strict","strict","strict","strict"],
             "reco_prio_tc":[0,0,0,0,0,0,0,0]}
            """;
    private static final String DCBX = "{\"host\":true,\"cee\":true,\"ieee\":true}\n";

    @TempDir
    Path root;

    private void capture(String object, String text) throws IOException {
        Path dir = root.resolve("dcb").resolve(IF);
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(object + ".json"), text);
    }

    private DcbSource.Reading read() throws IOException {
        return new CapturedDcbSource(root).readParts(IF);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            // iproute2 6.1: pairs of two
            "iproute2 6.1 | {\"dscp_prio\":[[0,0],[34,4],[48,6]]}",
            // iproute2 >= 6.5 (a245bfe1) prints a stray third element
            "iproute2 6.5 | {\"dscp_prio\":[[0,0,\" \"],[34,4,\" \"],[48,6,\" \"]]}",
            // -p pretty-printed (one line here), with an unknown key a later release might add
            "unknown key  | { \"future_key\": {\"x\": 1},  \"dscp_prio\": [ [ 0, 0 ], [ 34, 4 ], [ 48, 6 ] ] }"})
    void appPairsOfBothShapesReadTheSame(String shape, String app) throws IOException {
        capture("app", app);
        capture("pfc", PFC);
        capture("ets", ETS);
        capture("dcbx", DCBX);

        DcbSource.Reading reading = read();

        QosConfig config = reading.config();
        assertEquals(List.of(new AppEntry(5, 0, 0), new AppEntry(5, 4, 34), new AppEntry(5, 6, 48)), config.app());
        assertEquals("dscp", config.trust());
        assertEquals(4, config.priorityOfDscp(34));
        assertEquals(new QosConfig.Pfc(8, 1 << 4, 12), config.pfc());
        assertEquals(List.of(4), config.pfcPriorities());
        assertEquals(List.of(10, 0, 0, 0, 90, 0, 0, 0), config.ets().tcBandwidthPercent());
        assertEquals("vendor", config.ets().tcTsa().get(7));
        assertEquals(0x0d, config.dcbx());
        assertEquals(QosConfig.SOURCE_CAPTURE, config.source());
        assertNull(config.trustOrder(), "no apptrust capture");
        assertNull(config.buffer());
        assertEquals(List.of(), reading.unsupported());
    }

    @Test
    void prettyPrintedCapturesRead() throws IOException {
        capture("pfc", """
                {
                    "pfc_cap": 8,
                    "macsec_bypass": false,
                    "delay": 12,
                    "prio_pfc": [ false,false,false,false,true,false,false,false ]
                }
                """);
        capture("ets", ETS);
        capture("app", """
                {
                    "dscp_prio": [ [ 34,4," " ],[ 48,6," " ] ]
                }
                """);

        QosConfig config = read().config();

        assertEquals(List.of(4), config.pfcPriorities());
        assertEquals(4, config.priorityOfDscp(34));
    }

    @Test
    void keysInAnyOrderAndEveryAppSelector() throws IOException {
        capture("pfc", "{\"prio_pfc\":[true,false,false,false,false,false,false,true],\"delay\":0,\"pfc_cap\":4}");
        capture("ets", ETS);
        capture("app", """
                {"pcp_prio":[["1nd",1],["2de",2]],"port_prio":[[4791,5]],"dgram_port_prio":[[4791,6]],
                 "stream_port_prio":[[80,1]],"default_prio":[2],"ethtype_prio":[[35078,7]]}
                """);
        capture("apptrust", "{\"order\":[\"pcp\",\"dscp\"]}");
        capture("buffer", "{\"total_size\":262144,\"prio_buffer\":[0,0,0,0,1,0,0,0],"
                + "\"buffer_size\":[131072,131072,0,0,0,0,0,0]}");
        capture("maxrate", "{\"tc_maxrate\":[0,0,0,0,25000000,0,0,0]}");

        QosConfig config = read().config();

        assertEquals(0x81, config.pfc().enabledMask());
        assertEquals(4, config.pfc().capability());
        // in dcb app's print order, whatever the file's order
        assertEquals(List.of(new AppEntry(1, 7, 35078), new AppEntry(1, 2, 0), new AppEntry(2, 1, 80),
                new AppEntry(3, 6, 4791), new AppEntry(4, 5, 4791), new AppEntry(255, 1, 1),
                new AppEntry(255, 2, 10)), config.app());
        assertEquals("pcp", config.trust(), "the apptrust table decides where there is one");
        assertEquals(List.of(0, 0, 0, 0, 1, 0, 0, 0), config.buffer().priorityBuffer());
        assertEquals(262144, config.buffer().totalSizeBytes());
        assertEquals(25_000_000L, config.tcMaxrateKbits().get(4), "kbit/s as iproute2 before 6.18 prints it");
        assertNull(config.dcbx(), "no dcbx capture");
    }

    @Test
    void emptyAppTableMeansTrustPcp() throws IOException {
        capture("pfc", PFC);
        capture("ets", ETS);
        capture("app", "{}\n");

        QosConfig config = read().config();

        assertEquals(List.of(), config.app());
        assertEquals("pcp", config.trust());
    }

    @Test
    void whitespaceIsNotSupportedAndSaysSoForTheRequiredParts() throws IOException {
        capture("pfc", "\n");
        capture("ets", ETS);
        capture("app", "{}");
        capture("apptrust", "\n");

        DcbSource.Reading reading = read();

        assertNull(reading.config().pfc());
        assertNull(reading.config().trustOrder());
        assertEquals(List.of("dcb/" + IF + "/pfc.json: dcb pfc show printed nothing (not supported on " + IF + ")"),
                reading.unsupported(), "apptrust is optional: its absence is not even unsupported");
    }

    @Test
    void allRequiredPartsEmptyIsANetdevWithoutDcb() throws IOException {
        capture("pfc", "\n");
        capture("ets", "\n");
        capture("app", " \n");
        capture("dcbx", "\n");

        IOException e = assertThrows(UnsupportedCapabilityException.class, this::read);

        assertEquals("no DCB support on " + IF + " (dcb/" + IF + ": dcb pfc, ets and app show printed nothing)",
                e.getMessage());
    }

    /** A directory that holds none of the parts that matter is a broken capture: a failure, not an absent DCB. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "only dcbx captured       | dcbx | {\"host\":true}",
            "pfc empty, ets, app none | pfc  | ' '"})
    void aCaptureWithoutTheRequiredPartsFails(String name, String object, String text) throws IOException {
        capture(object, text);

        IOException e = assertThrows(IOException.class, this::read);

        assertEquals(IOException.class, e.getClass(), e.toString());
        assertEquals("dcb/" + IF + ": no pfc, ets or app capture holds a configuration", e.getMessage());
    }

    @Test
    void noCaptureDirectoryIsNotCaptured() {
        assertThrows(DcbSource.NotCapturedException.class, this::read);
    }

    @Test
    void aBadInterfaceNameIsRefusedBeforeAnyPathIsBuilt() {
        IOException e = assertThrows(IOException.class, () -> new CapturedDcbSource(root).read("../etc"));
        assertTrue(e.getMessage().contains("invalid interface name"), e.getMessage());
    }

    @ParameterizedTest(name = "{0}.json {1}")
    @CsvSource(delimiter = '|', value = {
            "pfc     | {\"pfc_cap\":8,\"delay\":0,\"prio_pfc\":[false,false,false,false]}      | prio_pfc: expected 8 entries, got 4",
            "pfc     | {\"pfc_cap\":8,\"delay\":0,\"prio_pfc\":[0,0,0,0,1,0,0,0]}              | prio_pfc[0]: expected true or false, got number",
            "pfc     | {\"delay\":0,\"prio_pfc\":[false,false,false,false,false,false,false,false]} | pfc_cap: missing",
            "ets     | {\"willing\":false,\"ets_cap\":8,\"tc_bw\":[0,0,0,0,0,0,0,0],\"tc_tsa\":[\"ets\",\"ets\",\"ets\",\"ets\",\"ets\",\"ets\",\"ets\",\"wfq\"],\"prio_tc\":[0,0,0,0,0,0,0,0]} | tc_tsa[7]: \"wfq\" is not one of",
            "ets     | {\"willing\":false,\"ets_cap\":8,\"tc_bw\":[0,0,0,0,0,0,0,0],\"tc_tsa\":[\"ets\",\"ets\",\"ets\",\"ets\",\"ets\",\"ets\",\"ets\",\"ets\"],\"prio_tc\":[0,0,0,0,0,0,0,9]} | prio_tc[7]: 9 is outside 0..7",
            "app     | {\"dscp_prio\":[[64,4]]}           | dscp_prio[0][0]: 64 is outside 0..63",
            "app     | {\"dscp_prio\":[[34,8]]}           | dscp_prio[0][1]: 8 is outside 0..7",
            "app     | {\"dscp_prio\":[[34]]}             | dscp_prio[0]: expected a [protocol, priority] pair, got an array of 1",
            "app     | {\"pcp_prio\":[[\"9nd\",1]]}       | pcp_prio[0][0]: PCP \"9nd\" is not one of",
            "app     | [[34,4]]                            | document: expected an object, got array",
            "app     | {\"dscp_prio\":[[34,4]]            | not JSON",
            "maxrate | {\"tc_maxrate\":[0,0,0,0,-1,0,0,0]} | tc_maxrate[4]: expected a non-negative integer, got -1"})
    void malformedCapturesNameTheFileAndTheKey(String object, String json, String expected) throws IOException {
        for (String required : List.of("pfc", "ets", "app")) {
            capture(required, required.equals("pfc") ? PFC : required.equals("ets") ? ETS : "{}");
        }
        capture(object, json);

        IOException e = assertThrows(IOException.class, this::read);

        assertTrue(e.getMessage().startsWith("dcb/" + IF + "/" + object + ".json: "), e.getMessage());
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }

    @Test
    void aCapturePastJacksonsLimitsIsRefusedNamingTheFile() throws IOException {
        capture("pfc", "{\"prio_pfc\":" + "[".repeat(5_000));
        capture("ets", ETS);
        capture("app", "{}");

        IOException e = assertThrows(IOException.class, this::read);

        assertTrue(e.getMessage().startsWith("dcb/" + IF + "/pfc.json: not JSON: Document nesting depth"), e.getMessage());
    }
}
