package io.rdmamon.protocol.model;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

class SharedValuesTest {
    @Test
    void equalValuesGetTheFirstInstanceUntilThePoolIsFullThenTheirOwn() {
        SharedValues<List<String>> pool = new SharedValues<>(2);
        List<String> counters = List.of("port_rcv_data", "port_xmit_data");
        List<String> hw = List.of("out_of_buffer");
        assertSame(counters, pool.of(counters));
        assertSame(counters, pool.of(List.of("port_rcv_data", "port_xmit_data")), "an equal list: the pooled one");
        assertSame(hw, pool.of(hw));
        assertEquals(2, pool.size());

        List<String> third = List.of("np_cnp_sent");
        assertSame(third, pool.of(third), "pool full: used as it is");
        List<String> equalToThird = List.of("np_cnp_sent");
        assertSame(equalToThird, pool.of(equalToThird), "and not pooled");
        assertEquals(2, pool.size());
    }

    @Test
    void sharedKeysAreOneInstancePerListOfNamesWithTheSameMaps() {
        CounterMap.Keys a = CounterMap.Keys.shared(List.of("x", "y", "x"));
        CounterMap.Keys b = CounterMap.Keys.shared(List.of("x", "y", "x"));
        assertSame(a, b);
        assertNotSame(a, CounterMap.Keys.shared(List.of("x", "y")));
        assertEquals(a, new CounterMap.Keys(List.of("x", "y", "x")), "equal by the names as listed");
        assertEquals(java.util.Map.of("x", 3L, "y", 2L), CounterMap.of(b, new long[]{1, 2, 3}, new java.util.BitSet(), 0),
                "a name listed twice keeps the later slot, as with keys of its own");
    }
}
