package org.ssbjca.support;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * A flight recorder event: a RECEIVE (or GET CONVERSATION GROUP) waiting between two looks at its queue on the
 * portable schema (PostgreSQL, H2), until the queue was signalled or the fallback interval passed. Idle time by
 * nature, so off unless a recording turns it on ({@code +org.ssbjca.Wait#enabled=true}).
 */
@Name(WaitEvent.NAME)
@Label("RECEIVE waiting")
@Category({"ssb-jca", "Inbound"})
@Description("A RECEIVE waiting for a signal of its queue (portable schema), or for its fallback look")
@Enabled(false)
@StackTrace(false)
public final class WaitEvent extends jdk.jfr.Event {

    /** The event's name in a recording. */
    public static final String NAME = "org.ssbjca.Wait";

    @Label("Queue")
    public String queue;

    @Label("Signalled")
    @Description("Whether the queue was signalled before the wait's time ran out (a commit, a hand-off, another"
            + " node's notification); false when the time ran out first")
    public boolean signalled;

    @Label("Busy")
    @Description("How long before the wait began the queue had been signalled (during the look before it): the"
            + " thread did not block; 0 when the signal came during the wait or there was none")
    @Timespan(Timespan.NANOSECONDS)
    public long busy;

    @Label("Wake-up")
    @Description("From the queue's last signal (or the wait's start, when it came before) to the waiting thread"
            + " running again; 0 when not signalled")
    @Timespan(Timespan.NANOSECONDS)
    public long wakeUp;
}
