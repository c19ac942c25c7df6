package io.rdmamon.protocol.model;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * An immutable map of counter name to value (null when absent) over a set of names that many maps share.
 * The collector rebuilds every port's counter maps for every sample of every node, always with the names
 * of the same layout: the names and their index are built once per layout ({@link Keys}), and each map
 * holds only its values in a {@code long[]}, boxed when read, instead of a {@code LinkedHashMap} of boxed
 * {@code Long}s (rebuilding those was a sixth of the collector's ingest time at 2,000 nodes).
 *
 * <p>It behaves as the {@code LinkedHashMap} it replaces: iteration in name order, a key with a null value
 * for an absent counter, {@code equals}/{@code hashCode}/{@code toString} of {@link Map}. Nothing can
 * change it after {@link #of} (it owns its values; {@link AbstractMap} refuses {@code put}, its entries and
 * iterators refuse changes), so the model records keep it as it is, neither copied nor wrapped.
 */
public final class CounterMap extends AbstractMap<String, Long> {
    /** Counter names in slot order with their index; immutable, shared by every map of one layout. */
    public static final class Keys {
        private final String[] names;
        private final int[] slots;
        private final int width;
        /** No name is listed twice: name {@code i} is slot {@code i}. */
        private final boolean distinct;
        private final Map<String, Integer> index;
        /** The names as given (duplicates included): what two keys are equal by. */
        private final List<String> listed;

        /** Keys over layouts' name lists, one instance per distinct list ({@link SharedValues}). */
        private static final SharedValues<Keys> SHARED = new SharedValues<>(4096);

        /**
         * The names of {@code width = names.size()} consecutive slots. A name listed twice is one key
         * holding the later slot's value, at the place of its first listing, as {@code Map.put} in slot
         * order would leave it.
         */
        public Keys(List<String> names) {
            listed = List.copyOf(names);
            width = names.size();
            index = new HashMap<>(names.size() * 4 / 3 + 1);
            List<String> distinct = new ArrayList<>(names.size());
            int[] lastSlot = new int[names.size()];
            for (int slot = 0; slot < names.size(); slot++) {
                String name = names.get(slot);
                Integer known = index.putIfAbsent(name, distinct.size());
                if (known == null) {
                    lastSlot[distinct.size()] = slot;
                    distinct.add(name);
                } else {
                    lastSlot[known] = slot;
                }
            }
            this.names = distinct.toArray(String[]::new);
            this.slots = Arrays.copyOf(lastSlot, this.names.length);
            this.distinct = this.names.length == width;
        }

        /**
         * Keys over {@code names} shared with every equal list of names decoded before (the same model's counters on
         * every node of a fleet), and so are the name strings; a new instance when the pool is full.
         */
        public static Keys shared(List<String> names) {
            return SHARED.of(new Keys(SharedValues.NAME_LISTS.of(List.copyOf(names))));
        }

        /** Equal when the names as given are. */
        @Override
        public boolean equals(Object other) {
            return other instanceof Keys keys && listed.equals(keys.listed);
        }

        @Override
        public int hashCode() {
            return listed.hashCode();
        }

        /** Number of slots the names occupy. */
        public int width() {
            return width;
        }

        /** The distinct names, in order: name {@code i} is the {@code i}-th entry of every map over these keys. */
        List<String> distinctNames() {
            return List.of(names);
        }
    }

    private final Keys keys;
    private final long[] values;
    /** Bit {@code i} set: the value of {@code keys.names[i]} is absent; null when none is. */
    private final BitSet absent;

    /** A map owning {@code values} (one per distinct name of {@code keys}); {@code absent} may be null. */
    CounterMap(Keys keys, long[] values, BitSet absent) {
        this.keys = keys;
        this.values = values;
        this.absent = absent;
    }

    /**
     * The map of {@code keys} whose values are {@code values[from .. from + keys.width())}, a set bit of
     * {@code absent} at a slot marking its value absent. Copies what it keeps.
     */
    public static CounterMap of(Keys keys, long[] values, BitSet absent, int from) {
        long[] own = new long[keys.names.length];
        if (keys.distinct) {
            System.arraycopy(values, from, own, 0, own.length);
        } else {
            for (int i = 0; i < own.length; i++) {
                own[i] = values[from + keys.slots[i]];
            }
        }
        int firstAbsent = absent.nextSetBit(from);
        if (firstAbsent < 0 || firstAbsent >= from + keys.width) {
            return new CounterMap(keys, own, null); // the common case: every counter was read
        }
        BitSet ownAbsent = new BitSet(own.length);
        for (int i = 0; i < own.length; i++) {
            if (absent.get(from + keys.slots[i])) {
                ownAbsent.set(i);
            }
        }
        return new CounterMap(keys, own, ownAbsent);
    }

    /** Whether this map's names are {@code keys}. */
    boolean hasKeys(Keys keys) {
        return this.keys == keys;
    }

    /** The value of the {@code i}-th distinct name of its keys; null when absent. */
    Long valueAt(int i) {
        return absent != null && absent.get(i) ? null : values[i];
    }

    @Override
    public int size() {
        return values.length;
    }

    @Override
    public boolean containsKey(Object key) {
        return keys.index.containsKey(key);
    }

    @Override
    public Long get(Object key) {
        Integer i = keys.index.get(key);
        return i == null ? null : valueAt(i);
    }

    @Override
    public void forEach(BiConsumer<? super String, ? super Long> action) {
        for (int i = 0; i < values.length; i++) {
            action.accept(keys.names[i], valueAt(i));
        }
    }

    @Override
    public Set<Entry<String, Long>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<Entry<String, Long>> iterator() {
                return new Iterator<>() {
                    private int next;

                    @Override
                    public boolean hasNext() {
                        return next < values.length;
                    }

                    @Override
                    public Entry<String, Long> next() {
                        if (next >= values.length) {
                            throw new NoSuchElementException();
                        }
                        int i = next++;
                        return new SimpleImmutableEntry<>(keys.names[i], valueAt(i));
                    }
                };
            }

            @Override
            public int size() {
                return values.length;
            }
        };
    }
}
