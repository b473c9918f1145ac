package org.ssbjca.support;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * A flight recorder event: a RECEIVE waiting between two looks at its queue on the portable schema (PostgreSQL, H2),
 * until a commit signalled the queue or the fallback interval passed. Idle time by nature, so off unless a recording
 * turns it on ({@code +org.ssbjca.Wait#enabled=true}).
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
    @Description("Whether a signal of the queue ended the wait; false when the time ran out")
    public boolean signalled;

    @Label("Wake-up")
    @Description("From the queue's last signal to the waiting thread running again; 0 when not signalled")
    @Timespan(Timespan.NANOSECONDS)
    public long wakeUp;
}
