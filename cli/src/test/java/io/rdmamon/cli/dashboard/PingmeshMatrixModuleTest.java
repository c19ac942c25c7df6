package io.rdmamon.cli.dashboard;

import com.microsoft.playwright.Page;
import io.rdmamon.collector.Collector;
import io.rdmamon.collector.CollectorConfig;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static io.rdmamon.protocol.testing.Waits.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The dashboard's js/pingmesh-matrix.js (colour levels, port order, the worst cell per pixel, what lies under the
 * pointer) as table tests, run in real headless Chromium: the module is loaded from a collector's static files and
 * called with made-up inputs.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(VertxExtension.class)
class PingmeshMatrixModuleTest {
    private final List<String> consoleErrors = new CopyOnWriteArrayList<>();
    private Collector.Running collector;
    private HeadlessChromium chromium;
    private Page page;

    @BeforeAll
    void start(Vertx vertx, @TempDir Path temp) throws Exception {
        collector = await(Collector.start(vertx, CollectorConfig.defaults().withListen("127.0.0.1:0")));
        chromium = new HeadlessChromium(temp.resolve("chromium-profile"));
        page = chromium.newPage(consoleErrors);
        page.navigate("http://127.0.0.1:" + collector.port() + "/");
    }

    @AfterAll
    void stop() throws Exception {
        if (chromium != null) {
            chromium.close();
        }
    }

    /** {@code body} run with the module as {@code m}; its value comes back through JSON. */
    private Object call(String body) {
        return page.evaluate("async () => { const m = await import('/js/pingmesh-matrix.js'); " + body + " }");
    }

    @Test
    void roundTripsGoFromGreenAtTheMedianToYellowAtFourTimesItAndLossIsRedWhateverTheRoundTrip() {
        // [p50, median] → level: at or below the median 2 (green), twice 65, four times and more 127 (yellow),
        // no p50 or no median 1 (grey)
        assertEquals(List.of(2, 2, 65, 127, 127, 1, 1), call("""
                return [[8e-6, 8e-6], [4e-6, 8e-6], [16e-6, 8e-6], [32e-6, 8e-6], [1e-3, 8e-6], [null, 8e-6], [8e-6, null]]
                  .map(([p50, median]) => m.rttLevel(p50, median));"""));
        // [lost, sent] → level: 0.1 % or less 128 (light red), 1 % 170, 10 % 213, all 255 (dark red)
        assertEquals(List.of(128, 128, 170, 213, 255, 255), call("""
                return [[1, 10000], [1, 1000], [1, 100], [1, 10], [60, 60], [5, 0]].map(([lost, sent]) => m.lossLevel(lost, sent));"""));
        // a fast pair that lost one probe is red; a slow one that lost none is yellow
        assertEquals(List.of(128, 127), call("""
                const cells = m.flatCells([[0, 1, 1000, 1, 1e-6, 2e-6, 0], [1, 0, 1000, 0, 1e-3, 2e-3, 0]]);
                return [m.cellLevel(cells, 0, 8e-6), m.cellLevel(cells, 1, 8e-6)];"""));
        // the median of the p50s there are (odd and even counts)
        assertEquals(List.of(2.5, 5.5), call("""
                return [m.medianP50(m.flatCells([[0, 1, 1, 0, 2.5, 5, 0], [0, 1, 1, 0, null, null, 0], [0, 1, 1, 0, 1.5, 1, 0], [0, 1, 1, 0, 9.5, 9, 0]])),
                        m.medianP50(m.flatCells([[0, 1, 1, 0, 5, 5, 0], [0, 1, 1, 0, 6, 6, 0]]))];"""));
    }

    @Test
    void portsAreOrderedByGroupThenNodeDevicePortWithNumbersReadAsNumbersAndGroupsBecomeBands() {
        @SuppressWarnings("unchecked")
        Map<String, Object> order = (Map<String, Object>) call("""
                const ports = [
                  {group: 'leaf-10', node: 'gpu-2', device: 'mlx5_0', port: 1},
                  {group: 'leaf-9', node: 'gpu-10', device: 'mlx5_0', port: 1},
                  {group: 'leaf-9', node: 'gpu-2', device: 'mlx5_10', port: 1},
                  {group: 'leaf-9', node: 'gpu-2', device: 'mlx5_2', port: 2},
                  {group: 'leaf-9', node: 'gpu-2', device: 'mlx5_2', port: 1}];
                const o = m.portOrder(ports);
                return {order: Array.from(o.order), position: Array.from(o.position), bands: o.bands,
                        same: m.samePorts(ports, ports.map((p) => ({...p}))),
                        moved: m.samePorts(ports, [...ports].reverse())};""");
        assertEquals(List.of(4, 3, 2, 1, 0), order.get("order"));
        assertEquals(List.of(4, 3, 2, 1, 0), order.get("position"));
        assertEquals(List.of(Map.of("name", "leaf-9", "start", 0, "end", 4), Map.of("name", "leaf-10", "start", 4, "end", 5)),
                order.get("bands"));
        assertEquals(true, order.get("same"));
        assertEquals(false, order.get("moved"));
    }

    @Test
    void positionsShareAPixelWhenThereAreMoreThanPixelsAndOtherwiseGetWholeCells() {
        // [count, side] → cell pixels, pixels drawn, where positions 0..3 start, the position pixel 3 shows
        assertEquals(List.of(
                List.of(3, 9, List.of(0, 3, 6, 9), 1),
                List.of(0, 10, List.of(0, 0, 1, 1), 6),
                List.of(0, 10, List.of(0, 0, 0, 1), 9)), call("""
                return [[3, 10], [20, 10], [30, 10]].map(([count, side]) => {
                  const a = m.axis(count, side);
                  return [a.cell, a.drawn, Array.from(a.start.subarray(0, 4)), m.positionAt(a, 3)];
                });"""));
    }

    @Test
    void aPixelShowsTheWorstCellOnItAndRemembersWhichOne() {
        // 4 ports on 2 pixels: ports 0,1 share pixel 0 and ports 2,3 pixel 1
        @SuppressWarnings("unchecked")
        Map<String, List<Number>> raster = (Map<String, List<Number>>) call("""
                const cells = m.flatCells([
                  [0, 2, 100, 0, 8e-6, 9e-6, 1],
                  [1, 3, 100, 10, 8e-6, 9e-6, 1],
                  [1, 2, 100, 0, 64e-6, 70e-6, 1],
                  [2, 0, 100, 0, 8e-6, 9e-6, 1]]);
                const a = m.axis(4, 2);
                const levels = new Uint8Array(4);
                const owner = new Int32Array(4);
                m.rasterize(cells, Int32Array.from([0, 1, 2, 3]), a, 8e-6, levels, owner);
                return {levels: Array.from(levels), owner: Array.from(owner)};""");
        // pixel (row 0, column 1) holds a green, a yellow and a red cell: red (cell 1); (1, 0) green; the rest unprobed
        assertEquals(List.of(1, 213, 2, 1), raster.get("levels"));
        assertEquals(List.of(-1, 1, 3, -1), raster.get("owner"));
    }

    @Test
    void underThePointerIsAPairACellOfNoneAGroupBandOrAPortStrip() {
        // 2 ports in two groups on a 224 CSS px canvas: the band is 18 px, the strip 5, the matrix starts at 24 with
        // cells of 100 px; cell 0 is 0 → 1 (row 0, column 1)
        assertEquals(List.of(
                Map.of("cell", 0, "src", 0, "dst", 1),
                Map.of("cell", -1, "src", 1, "dst", 0),
                Map.of("group", "leaf-2"),
                Map.of("port", 0),
                "null"), call("""
                const model = {ports: [{group: 'leaf-1'}, {group: 'leaf-2'}], order: Int32Array.from([0, 1]),
                  position: Int32Array.from([0, 1]), bands: [{name: 'leaf-1', start: 0, end: 1}, {name: 'leaf-2', start: 1, end: 2}],
                  cells: m.flatCells([[0, 1, 10, 0, 8e-6, 9e-6, 1]]), median: 8e-6};
                const g = m.geometry(2, 224, 1);
                const {owner} = m.compose(model, g);
                return [[24 + 150, 24 + 50], [24 + 50, 24 + 150], [24 + 150, 9], [20, 24 + 50], [5, 5]]
                  .map(([x, y]) => m.hitTest(g, owner, model, x, y) ?? 'null');"""));
    }
}
