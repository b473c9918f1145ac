package org.ssbjca.bench.server;

import jdk.jfr.Category;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A latency run's message in WildFly's flight recording, beside the adapter's own events: its send returned ({@code
 * sent}, on the sending thread) or it reached the bean ({@code sent} false, on the delivering thread). Off unless the
 * benchmark's recording turns it on.
 */
@Name(LatencyEvent.NAME)
@Label("Benchmark latency message")
@Category("ssb-jca benchmark")
@Enabled(false)
@StackTrace(false)
public final class LatencyEvent extends jdk.jfr.Event {

    public static final String NAME = "org.ssbjca.bench.Latency";

    @Label("Run")
    int run;

    @Label("Message")
    int id;

    @Label("Sent")
    boolean sent;

    static void record(int run, int id, boolean sent) {
        LatencyEvent e = new LatencyEvent();
        if (e.isEnabled()) {
            e.run = run;
            e.id = id;
            e.sent = sent;
            e.commit();
        }
    }
}
