package org.ssbjca.console;

import java.time.Clock;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One sampling: reads every activation's counters and gauges and records them in the {@link Histories}. Run every
 * {@value Histories#PERIOD_SECONDS} s by one thread at a time; it never throws, so a periodic schedule goes on. The
 * counters are in memory; the gauges ({@link Sample#GAUGES}) count the queue on the database, so they are read at
 * every {@value #GAUGE_EVERY}th sampling only and carried in between.
 */
final class Sampler implements Runnable {

    /** Every how many samplings the database gauges are read. */
    static final int GAUGE_EVERY = 6;

    /** Where the samples come from: the MXBeans, or a test's values. */
    interface Source {
        /** @return the activations' names */
        List<String> names();

        /**
         * @param activation an activation
         * @param attributes the attributes to read
         * @return their values, in that order
         * @throws RuntimeException when the activation cannot be read (gone since it was listed)
         */
        Object[] values(String activation, String[] attributes);
    }

    private final Source source;
    private final Clock clock;
    private final Histories histories;
    private final Map<String, long[]> gauges = new HashMap<>();
    private int sampling;
    private boolean failing;

    /**
     * @param source the activations
     * @param clock the time a sample is taken at
     * @param histories where the samples go
     */
    Sampler(Source source, Clock clock, Histories histories) {
        this.source = source;
        this.clock = clock;
        this.histories = histories;
    }

    @Override
    public void run() {
        try {
            long now = clock.millis();
            boolean readGauges = sampling++ % GAUGE_EVERY == 0;
            Map<String, Sample> samples = new LinkedHashMap<>();
            List<String> names = source.names();
            gauges.keySet().retainAll(names);
            for (String name : names) {
                try {
                    Object[] counters = source.values(name, Sample.COUNTERS);
                    long[] g = gauges.get(name);
                    if (readGauges || g == null) {
                        Object[] read = source.values(name, Sample.GAUGES);
                        g = new long[] {whole(read[0]), whole(read[1])};
                        gauges.put(name, g);
                    }
                    samples.put(name, sample(now, counters, g));
                } catch (RuntimeException gone) {
                    // undeployed since it was listed: it gets a gap, as an activation not listed does
                }
            }
            histories.record(now, samples);
            failing = false;
        } catch (RuntimeException e) {
            if (!failing) {
                ConsoleLog.samplingFailed(e);
            }
            failing = true;
        }
    }

    private static Sample sample(long millis, Object[] v, long[] gauges) {
        return new Sample(millis, whole(v[0]), whole(v[1]), whole(v[2]), whole(v[3]), whole(v[4]), real(v[5]),
                real(v[6]), gauges[0], gauges[1]);
    }

    private static long whole(Object value) {
        return value instanceof Number n ? n.longValue() : 0;
    }

    private static double real(Object value) {
        return value instanceof Number n && Double.isFinite(n.doubleValue()) ? n.doubleValue() : 0;
    }
}
