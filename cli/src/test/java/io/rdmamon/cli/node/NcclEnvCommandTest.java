package io.rdmamon.cli.node;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmamon.agent.host.Fixtures;
import io.rdmamon.cli.CliRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@code nccl-env} on a copy of the mlx5-roce host root whose second port lost its netdev's IPv4 address. */
class NcclEnvCommandTest {
    private static final String ZERO_GID = "0000:0000:0000:0000:0000:0000:0000:0000";

    @Test
    void aPortWhoseNetdevHasNoIpv4IsLeftOutWithTheFixAndTheOtherKeepsItsGidIndex(@TempDir Path dir) throws Exception {
        Path root = Fixtures.copy("mlx5-roce", dir.resolve("root"));
        // the kernel drops a netdev's IPv4 GIDs (here 2 = v1 and 3 = v2) with its address, leaving the fe80 ones
        Path gids = root.resolve("sys/class/infiniband/mlx5_1/ports/1/gids");
        for (String index : List.of("2", "3")) {
            Files.writeString(gids.resolve(index), ZERO_GID + "\n");
        }

        CliRun text = CliRun.of("nccl-env", "--host-root", root.toString());

        assertEquals(0, text.exitCode(), text::toString);
        List<String> lines = text.out().lines().toList();
        String leftOut = "mlx5_1:1 left out of NCCL_IB_HCA and NCCL_SOCKET_IFNAME: no RoCE v2 IPv4 GID, as ens1f1np1 "
                + "has no IPv4 address; assign an IPv4 address to ens1f1np1, or leave the port out";
        assertEquals("export NCCL_IB_HCA==mlx5_0:1  # 1 active RDMA port (exact match, so no other device is picked)",
                lines.get(0));
        assertEquals("export NCCL_IB_GID_INDEX=3  # RoCE v2 IPv4 GID on mlx5_0:1", lines.get(1));
        assertEquals("export NCCL_SOCKET_IFNAME==ens1f0np0", lines.get(3).split("  # ")[0]);
        assertEquals("# " + leftOut, lines.get(4));
        // the fixture's /etc/nccl.conf forces NCCL_IB_GID_INDEX=3 and NCCL_IB_TC=106, and NCCL still uses mlx5_1:1
        // (that file sets no NCCL_IB_HCA): the advice leaving the port out does not make the file right for it
        String mismatch = "NCCL_IB_GID_INDEX=3 in /etc/nccl.conf is not a RoCE v2 IPv4 GID on mlx5_1:1";
        assertEquals(List.of("# mismatch: " + mismatch, "# mismatch: NCCL_IB_TC=106 in /etc/nccl.conf is DSCP 26, which "
                + "mlx5_1:1 maps to priority 3 without PFC"), lines.subList(5, lines.size()));
        JsonNode json = new ObjectMapper().readTree(CliRun.of("nccl-env", "--json", "--host-root", root.toString()).out());
        assertEquals(1, json.get("leftOut").size());
        assertEquals(leftOut, json.get("leftOut").get(0).asText());
        assertEquals(mismatch, json.get("ncclConfMismatches").get(0).asText());
    }
}
