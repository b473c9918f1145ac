package org.ssbjca.monitoring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.config.NamingConvention;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A registry's meters as WildFly's Prometheus registry exports them, the names docs/reference/metrics.md and its scrape
 * show: dots become underscores, a counter gets {@code _total}, a function timer is a summary of seconds ({@code
 * _seconds_count},
 * {@code _seconds_sum}). Each series is keyed {@code name{label="value",...}}, labels in alphabetical order as in a
 * scrape. A meter of another kind fails: the WAR registers none.
 */
final class Exposition {

    /** One exported series: its Prometheus type and its value at the reading. */
    record Series(String type, double value) {
    }

    private Exposition() {
    }

    /** @return every series of the registry now, by name and labels */
    static Map<String, Series> of(MeterRegistry registry) {
        Map<String, Series> series = new TreeMap<>();
        for (Meter meter : registry.getMeters()) {
            String name = NamingConvention.snakeCase.name(meter.getId().getName(), meter.getId().getType());
            String labels = meter.getId().getTags().stream()
                    .map(t -> t.getKey() + "=\"" + t.getValue() + "\"")
                    .collect(Collectors.joining(",", "{", "}"));
            if (meter instanceof FunctionCounter c) {
                series.put(name + "_total" + labels, new Series("counter", c.count()));
            } else if (meter instanceof Counter c) {
                series.put(name + "_total" + labels, new Series("counter", c.count()));
            } else if (meter instanceof Gauge g) {
                series.put(name + labels, new Series("gauge", g.value()));
            } else if (meter instanceof FunctionTimer t) {
                series.put(name + "_seconds_count" + labels, new Series("summary", t.count()));
                series.put(name + "_seconds_sum" + labels, new Series("summary", t.totalTime(TimeUnit.SECONDS)));
            } else {
                throw new IllegalArgumentException("not a meter the WAR registers: " + meter.getId());
            }
        }
        return series;
    }

    /**
     * Asserts that the registry exports that series now, of that type and value.
     *
     * @param labels label names and values, alternately, in alphabetical order of the names
     */
    static void assertSeries(MeterRegistry registry, String type, double value, String metric, String... labels) {
        Map<String, Series> scrape = of(registry);
        String name = series(metric, labels);
        Series series = scrape.get(name);
        assertNotNull(series, () -> name + " not in " + scrape.keySet());
        assertEquals(type, series.type(), () -> "the type of " + name);
        assertEquals(value, series.value(), 1e-9, () -> "the value of " + name);
    }

    /**
     * @param labels label names and values, alternately, in alphabetical order of the names
     * @return {@code name{label="value",...}}
     */
    static String series(String name, String... labels) {
        StringBuilder s = new StringBuilder(name).append('{');
        for (int i = 0; i < labels.length; i += 2) {
            s.append(i == 0 ? "" : ",").append(labels[i]).append("=\"").append(labels[i + 1]).append('"');
        }
        return s.append('}').toString();
    }

    /** @return the names of the series (without labels) that carry these labels */
    static Set<String> names(Map<String, Series> series, String... labels) {
        String suffix = series("", labels);
        return series.keySet().stream().filter(k -> k.endsWith(suffix))
                .map(k -> k.substring(0, k.length() - suffix.length()))
                .collect(Collectors.toCollection(TreeSet::new));
    }
}
