package org.ssbjca.bench.server;

import jdk.jfr.Category;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * One take of the loop inside WildFly ({@link ContainerLoop}): its statement run until it returned a message or gave
 * up, timed as the adapter's {@code org.ssbjca.Receive} times a reader's RECEIVE, so that a recording can set the two
 * side by side (a reader's first takes against the loop thread's). Off unless a recording turns it on.
 */
@Name(LoopTakeEvent.NAME)
@Label("Benchmark loop take")
@Category("ssb-jca benchmark")
@Enabled(false)
@StackTrace(false)
public final class LoopTakeEvent extends jdk.jfr.Event {

    public static final String NAME = "org.ssbjca.bench.LoopTake";

    @Label("Taken")
    boolean taken;
}
