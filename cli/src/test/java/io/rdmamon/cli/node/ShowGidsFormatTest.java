package io.rdmamon.cli.node;

import io.rdmamon.protocol.testing.FixtureHosts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ShowGidsFormatTest {

    @Test
    void printsShowGidsLayout() {
        String expected = ""
                + "DEV\tPORT\tINDEX\tGID\t\t\t\t\tIPv4  \t\tVER\tDEV\n"
                + "---\t----\t-----\t---\t\t\t\t\t------------  \t---\t---\n"
                + "mlx5_0\t1\t0\tfe80:0000:0000:0000:0e42:a1ff:fe12:3456\t\t\tv1\teth2\n"
                + "mlx5_0\t1\t1\tfe80:0000:0000:0000:0e42:a1ff:fe12:3456\t\t\tv2\teth2\n"
                + "mlx5_0\t1\t2\t0000:0000:0000:0000:0000:ffff:c0a8:0102\t192.168.1.2  \tv1\teth2\n"
                + "mlx5_0\t1\t3\t0000:0000:0000:0000:0000:ffff:c0a8:0102\t192.168.1.2  \tv2\teth2\n"
                + "erdma_0\t1\t0\t0016:3e01:0203:0000:0000:0000:0000:0000\t\t\t\t\n"
                + "n_gids_found=5\n";
        assertEquals(expected, ShowGidsFormat.table(List.of(FixtureHosts.commandsMlx5(), FixtureHosts.erdma(Map.of()))));
    }

    @Test
    void emptySelectionStillPrintsHeaderAndZeroCount() {
        assertEquals(ShowGidsFormat.HEADER + "\n" + ShowGidsFormat.RULE + "\nn_gids_found=0\n",
                ShowGidsFormat.table(List.of()));
    }

    @ParameterizedTest
    @CsvSource(nullValues = "NULL", value = {
            "IB/RoCE v1, v1",
            "RoCE v2, v2",
            "Invalid GID type, ''",
            "NULL, ''"})
    void versionIsTheTailFromTheFirstV(String type, String expected) {
        assertEquals(expected, ShowGidsFormat.version(type));
    }
}
