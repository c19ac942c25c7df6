package io.rdmamon.protocol.nccl;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** NCCL_IB_HCA read as NCCL reads it (net_ib/init.cc, misc/utils.cc parseStringList/matchIfList). */
class NcclIfListTest {
    @ParameterizedTest(name = "{0} selects {1}:{2} = {3}")
    @CsvSource(delimiter = ';', value = {
            "mlx5_1;        mlx5_1;  1; true",
            "mlx5_1;        mlx5_10; 1; true",   // a prefix
            "mlx5_1;        mlx5_0;  1; false",
            "=mlx5_1;       mlx5_10; 1; false",  // exact
            "=mlx5_1;       mlx5_1;  2; true",   // no port: every port
            "mlx5_1:1;      mlx5_1;  2; false",
            "mlx5_1:1;      mlx5_1;  1; true",
            "mlx5_1:1:0;    mlx5_1;  1; true",   // rail (and plane) do not select
            "^mlx5_1;       mlx5_10; 1; false",  // excluded as a prefix
            "^mlx5_1;       mlx5_0;  1; true",
            "^=mlx5_1;      mlx5_10; 1; true",
            "^=mlx5_1;      mlx5_1;  1; false",
            "=^mlx5_1;      mlx5_1;  1; false",  // '^' only first: '=' then the name '^mlx5_1'
            "mlx5_0,mlx5_1; mlx5_1;  1; true",
            "'mlx5_0, mlx5_1'; mlx5_1; 1; false", // not trimmed: ' mlx5_1' is no prefix of mlx5_1
            "'';            mlx5_1;  1; true",   // an empty list selects every port
            "^;             mlx5_1;  1; false",  // ... so '^' alone excludes every one
            ",,;            mlx5_1;  1; true",
            "mlx5_1:x;      mlx5_1;  1; false",  // atoi: port 0, which no port has
    })
    void selectsAsNcclDoes(String value, String device, int port, boolean selected) {
        assertEquals(selected, NcclIfList.parse(value).selects(device, port));
    }

    @Test
    void unsetIsNull() {
        assertNull(NcclIfList.parse(null));
        assertEquals(java.util.List.of(new NcclIfList.Entry("mlx5_0", 1), new NcclIfList.Entry("mlx5_1", -1)),
                NcclIfList.parse("^=mlx5_0:1,mlx5_1").entries());
        assertEquals("mlx5_0:1", new NcclIfList.Entry("mlx5_0", 1).toString());
    }
}
