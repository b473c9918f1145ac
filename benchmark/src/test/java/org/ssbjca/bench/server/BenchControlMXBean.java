package org.ssbjca.bench.server;

/** What the benchmark client asks of the server, over JMX. */
public interface BenchControlMXBean {

    /** The JMX name. */
    String NAME = "org.ssbjca.bench:type=Control";

    /**
     * Starts counting a run: it ends when {@code expected} messages have been delivered in committed transactions.
     *
     * @param expected messages
     */
    void arm(int expected);

    /**
     * @param timeoutMillis the longest to wait for the run's end
     * @return {first delivery's start (nanoTime), the run's end (nanoTime, 0 if it did not end), committed messages,
     *         delivered messages, rolled-back deliveries, committed transactions, the most messages one committed
     *         transaction took, then nine nanoTimes: the commits that brought the committed messages to a tenth, two
     *         tenths, ... nine tenths of the expected (0 for one not reached), then each delivery thread's first
     *         delivery, nanoseconds after the run's first began, in order (the first 0): how far apart the drain's
     *         readers or threads started}
     * @throws InterruptedException if interrupted
     */
    long[] await(long timeoutMillis) throws InterruptedException;

    /**
     * @return {committed messages, delivered messages, rolled-back deliveries} of the current run so far
     */
    long[] progress();

    /**
     * Puts messages on the Artemis queue, 500 per transaction.
     *
     * @param count messages
     * @param size body size
     */
    void fillArtemis(int count, int size);

    /**
     * Begins dialogs and SENDs through ssb-jca (for comparing the loader's rows with SEND's).
     *
     * @param conversations dialogs
     * @param perConversation messages on each, in one transaction per dialog
     * @param size body size
     */
    void sendSsb(int conversations, int perConversation, int size);

    /**
     * Sends numbered messages at a steady rate, each in its own transaction, and measures from the return of the
     * sender's commit to the start of {@code onMessage}.
     *
     * @param system "ssb" or "artemis"
     * @param count messages
     * @param perSecond the rate
     * @param size body size
     * @return per message, nanoseconds from commit to onMessage (negative: onMessage began before the sender's
     *         commit returned; Long.MIN_VALUE: never received)
     * @throws InterruptedException if interrupted
     */
    long[] latency(String system, int count, int perSecond, int size) throws InterruptedException;

    /**
     * Scheduled sends ({@code send} with a delay) at a steady rate over several conversations, each due
     * {@code delayMillis} after the moment just before its call.
     *
     * @param count messages
     * @param perSecond the rate of the calls
     * @param size body size
     * @param delayMillis each send's delay
     * @return per message, nanoseconds from its due time (the instant before its call plus the delay) to onMessage,
     *         never understated (negative: before it; Long.MIN_VALUE: never received)
     * @throws InterruptedException if interrupted
     */
    long[] lateness(int count, int perSecond, int size, long delayMillis) throws InterruptedException;

    /**
     * A latency run like {@link #latency} whose figures are thrown away and which records no {@code
     * org.ssbjca.bench.Latency} event: the system settles under the phase's flight recording before its first
     * measured round.
     *
     * @param system "ssb" or "artemis"
     * @param count messages
     * @param perSecond the rate
     * @param size body size
     * @throws InterruptedException if interrupted
     */
    void settle(String system, int count, int perSecond, int size) throws InterruptedException;

    /**
     * @return for the last {@link #latency} run, per message, whether a garbage collection of this JVM (WildFly's)
     *     overlapped its time from the sender's commit to {@code onMessage} (the collections' times have millisecond
     *     resolution: each is widened by a millisecond on both sides)
     */
    boolean[] latencyGcOverlaps();

    /** @return for the last {@link #latency} run: {garbage collections of this JVM during it, the longest in µs} */
    long[] latencyGcPauses();

    /**
     * @return this JVM's (WildFly's) garbage collections so far, all collectors: {how many, their time in ms} (the
     *     collectors' own accounting, whose time includes concurrent cycles)
     */
    long[] gcTotals();

    /**
     * The sending side: {@code callers} threads each calling the sender EJB, one container transaction per call,
     * until {@code total} calls are done; nothing consumes meanwhile.
     *
     * @param system "ssb" (BEGIN DIALOG, then SEND, through the connection factory), "ssb-one-call" (the same in one
     *     call, {@code beginDialogAndSend}) or "artemis" (one persistent send through java:/JmsXA)
     * @return {elapsed nanos, failed calls}
     */
    long[] outbound(String system, int callers, int total, int size) throws InterruptedException;

    /**
     * Starts the JDBC ceiling's loop inside WildFly ({@code ContainerLoop}): per message a JTA transaction of WildFly's
     * transaction manager, the connection's branch enlisted, {@code statement}, one EJB call recording the delivery
     * (counted as the MDBs' are: {@link #arm} first, then {@link #await}), a one-phase commit. Returns at once.
     *
     * @param database {JDBC URL, user, password}
     * @param statement the ceiling's statement, its one parameter the queue
     * @param queue the queue
     * @param threads threads, each with its own XA connection
     * @param expected messages to take
     */
    void startContainerLoop(String[] database, String statement, String queue, int threads, int expected);

    /**
     * Waits for the loop {@link #startContainerLoop} started to end.
     *
     * @return the messages it took
     * @throws InterruptedException if interrupted
     */
    int joinContainerLoop() throws InterruptedException;

    /**
     * @return what the tracing phase's bean found current in its calls since the last call: {in a span of the
     *     loader's trace other than the sender's, no span, another span} ({@code TraceCounts})
     */
    long[] takeTraceCounts();

    /**
     * Makes the runs armed from now on read each delivery thread's CPU time and allocated bytes at each delivery, or
     * stops it.
     *
     * @param on whether to measure
     */
    void measureThreads(boolean on);

    /**
     * @return the current run's delivery threads from each one's first delivery to its latest: {CPU ns, bytes
     *     allocated, cycles, threads}; all 0 when it did not measure them
     */
    long[] threadCosts();
}
