package io.rdmamon.protocol.wire;

import io.rdmamon.protocol.fabric.FabricLink;
import io.rdmamon.protocol.fabric.FabricNode;
import io.rdmamon.protocol.fabric.FabricSweep;
import io.rdmamon.protocol.testing.FabricSweeps;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The optional fabric frame: a sweep survives the wire, splits into parts, and bad frames are refused by name. */
class FabricWireTest {
    private final FrameCodec codec = new FrameCodec();
    private final FabricSweep sweep = FabricSweeps.leafAndTwoHosts("sweeper-1");

    @Test
    void aSweepRoundTripsWithUnsignedCounters() throws Exception {
        Frame.Fabric frame = new Frame.Fabric(0, 1, sweep);
        byte[] bytes = codec.encode(frame);
        assertTrue(new String(bytes, StandardCharsets.UTF_8).contains("\"PortXmitData\":18446744073709551615"));
        assertEquals(frame, codec.decode(bytes));
    }

    @Test
    void aSweepSplitsIntoPartsOfItsNodes() throws Exception {
        List<Frame.Fabric> parts = FabricWire.parts(sweep, 2);
        assertEquals(2, parts.size());
        assertEquals(List.of(2, 1), parts.stream().map(p -> p.sweep().nodes().size()).toList());
        assertEquals(sweep.nodes(), parts.stream().flatMap(p -> p.sweep().nodes().stream()).toList());
        for (Frame.Fabric part : parts) {
            assertEquals(part, codec.decode(codec.encode(part)));
        }
        assertEquals(1, FabricWire.parts(sweep.withNodes(List.of()), 2).size());
    }

    @Test
    void aSweepTooLargeForOneFrameIsSplitToFit() throws Exception {
        int oneFrame = codec.encode(new Frame.Fabric(0, 1, sweep)).length;
        FrameCodec small = new FrameCodec(oneFrame - 1);
        List<Frame.Fabric> parts = FabricWire.partsWithin(small, sweep);
        assertTrue(parts.size() > 1, "split");
        for (Frame.Fabric part : parts) {
            assertEquals(part, small.decode(small.encode(part)));
        }
        assertEquals(List.of(new Frame.Fabric(0, 1, sweep)), FabricWire.partsWithin(codec, sweep));
        assertThrows(IllegalArgumentException.class, () -> FabricWire.partsWithin(new FrameCodec(100), sweep));
    }

    @Test
    void linksAreNamedOnceByBothEnds() {
        List<FabricLink> links = sweep.links();
        assertEquals(2, links.size());
        FabricLink toH2 = links.stream().filter(l -> l.b().node().guid().equals(FabricSweeps.H2)
                || l.a().node().guid().equals(FabricSweeps.H2)).findFirst().orElseThrow();
        assertEquals(FabricSweeps.H2, toH2.a().node().guid(), "the lower GUID is end a");
        assertEquals(2, toH2.b().port().number());
    }

    @Test
    void hostTextMakesADescriptionPrintableAndShort() {
        FabricNode odd = new FabricNode(FabricSweeps.H1, sweep.nodes().get(1).type(), "h1\u001b[31m" + "x".repeat(80),
                sweep.nodes().get(1).ports());
        Frame.Fabric frame = new Frame.Fabric(0, 1, sweep.withNodes(List.of(odd)));
        Frame.Fabric clean = (Frame.Fabric) HostTextFrames.sanitize(frame);
        String description = clean.sweep().nodes().get(0).description();
        assertTrue(description.startsWith("h1\\u001b[31m") && description.length() == FabricNode.MAX_DESCRIPTION_CHARS,
                description);
        Frame.Fabric fine = new Frame.Fabric(0, 1, sweep);
        assertSame(fine, HostTextFrames.sanitize(fine));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "\"fabricVersion\":1|\"fabricVersion\":2|frame.fabricVersion: fabric frame version 2 is not supported",
            "\"guid\":\"0x0000000000200000\"|\"guid\":\"leaf\"|frame.sweep.nodes[0].guid: 'leaf' is not a GUID",
            "\"type\":\"SWITCH\"|\"type\":\"HUB\"|frame.sweep.nodes[0].type: expected CA, SWITCH or ROUTER",
            "\"speed\":\"SDR\"|\"speed\":\"FAST\"|frame.sweep.nodes[0].ports[0].speed: unknown link speed 'FAST'",
            "\"SymbolErrorCounter\":0|\"SymbolErrorCounter\":-1|counters.SymbolErrorCounter: -1 is outside the unsigned",
            "\"SymbolErrorCounter\":0|\"Symbol Errors\":0|counter name 'Symbol Errors' must match",
            "\"part\":0|\"part\":1|part 1 of 1 is outside",
            "\"port\":1,|\"port\":300,|port 300 is outside 0..254",
            "\"description\":\"leaf1\"|\"description\":\"leaf\\u0007\"|description: character 4 of",
    })
    void aBadFrameIsRefusedByName(String field, String replacement, String reason) {
        String json = new String(codec.encode(new Frame.Fabric(0, 1, sweep)), StandardCharsets.UTF_8);
        assertTrue(json.contains(field), field);
        byte[] bad = json.replaceFirst(java.util.regex.Pattern.quote(field),
                java.util.regex.Matcher.quoteReplacement(replacement)).getBytes(StandardCharsets.UTF_8);
        FrameException e = assertThrows(FrameException.class, () -> codec.decode(bad));
        assertTrue(e.getMessage().contains(reason), e.getMessage());
    }

    @Test
    void tooManyNodesAreRefused() {
        FabricNode node = sweep.nodes().get(1);
        List<FabricNode> many = java.util.Collections.nCopies(FabricWire.MAX_NODES + 1, node);
        byte[] bytes = codec.encode(new Frame.Fabric(0, 1, sweep.withNodes(many)));
        FrameException e = assertThrows(FrameException.class, () -> codec.decode(bytes));
        assertTrue(e.getMessage().contains("at most " + FabricWire.MAX_NODES), e.getMessage());
    }
}
