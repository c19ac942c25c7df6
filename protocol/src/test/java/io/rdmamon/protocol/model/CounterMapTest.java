package io.rdmamon.protocol.model;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CounterMapTest {
    // slots 0..1 belong to another map; this map's names take slots 2..5, and slot 4 is absent
    private static final long[] VALUES = {7, 8, 5, -1L, 99, 0};
    private static final CounterMap.Keys KEYS = new CounterMap.Keys(List.of("port_rcv_data", "port_xmit_data",
            "port_xmit_wait", "VL15_dropped"));

    private static BitSet absent(int... slots) {
        BitSet bits = new BitSet();
        for (int slot : slots) {
            bits.set(slot);
        }
        return bits;
    }

    private static Map<String, Long> linked(Object... pairs) {
        Map<String, Long> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put((String) pairs[i], (Long) pairs[i + 1]);
        }
        return map;
    }

    @Test
    void behavesAsTheLinkedHashMapItReplaces() {
        CounterMap map = CounterMap.of(KEYS, VALUES, absent(0, 4), 2);
        Map<String, Long> expected = linked("port_rcv_data", 5L, "port_xmit_data", -1L, "port_xmit_wait", null,
                "VL15_dropped", 0L);

        assertEquals(expected, map);
        assertEquals(map, expected);
        assertEquals(expected.hashCode(), map.hashCode());
        assertEquals(expected.toString(), map.toString());
        assertEquals(List.copyOf(expected.keySet()), List.copyOf(map.keySet()));
        List<String> visited = new ArrayList<>();
        map.forEach((name, value) -> visited.add(name + "=" + value));
        assertEquals(List.of("port_rcv_data=5", "port_xmit_data=-1", "port_xmit_wait=null", "VL15_dropped=0"), visited);
        assertTrue(map.containsKey("port_xmit_wait"));
        assertNull(map.get("port_xmit_wait"));
        assertFalse(map.containsKey("symbol_error"));
        assertNull(map.get("symbol_error"));
        assertEquals(4, map.size());
    }

    @Test
    void ownsItsValuesAndRefusesChanges() {
        long[] values = VALUES.clone();
        BitSet absent = absent(4);
        CounterMap map = CounterMap.of(KEYS, values, absent, 2);
        values[2] = 1234;
        absent.clear();
        assertEquals(5L, map.get("port_rcv_data"));
        assertNull(map.get("port_xmit_wait"));
        assertThrows(UnsupportedOperationException.class, () -> map.put("port_rcv_data", 1L));
        assertThrows(UnsupportedOperationException.class, () -> map.entrySet().iterator().next().setValue(1L));
    }

    @Test
    void aNameListedTwiceKeepsTheLaterValueAtItsFirstPlaceAsMapPutWould() {
        CounterMap.Keys keys = new CounterMap.Keys(List.of("a", "b", "a"));
        assertEquals(3, keys.width());
        assertEquals(linked("a", 3L, "b", 2L), CounterMap.of(keys, new long[] {1, 2, 3}, new BitSet(), 0));
        assertEquals(linked("a", null, "b", 2L), CounterMap.of(keys, new long[] {1, 2, 3}, absent(2), 0));
    }

    @Test
    void modelRecordsTakeItUnmodifiable() {
        CounterMap counters = CounterMap.of(KEYS, VALUES, new BitSet(), 2);
        IbPort port = IbPort.builder().port(1).stateId(4).state("ACTIVE").physStateId(5).physState("LinkUp")
                .linkLayer("Ethernet").counters(counters).hwCounters(counters).build();
        assertEquals(counters, port.counters());
        assertThrows(UnsupportedOperationException.class, () -> port.counters().remove("port_rcv_data"));
        assertThrows(UnsupportedOperationException.class, () -> port.hwCounters().clear());
    }
}
