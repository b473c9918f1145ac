package org.ssbjca.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where the latency run's ssb-jca messages spent their time, from a flight recording of WildFly's JVM over the
 * latency phase (both systems' rounds, so that both run under it): the adapter's own events ({@code org.ssbjca.Wait},
 * {@code org.ssbjca.Receive}, "Flight recorder events" in docs/operations/monitoring.md) and the benchmark's ({@code
 * org.ssbjca.bench.Latency}: a message's send returned, it reached the bean). For each message, on the thread that
 * delivered it: the RECEIVE that took it, the wait that this RECEIVE came out of, and from them six stages that add
 * up to the message's latency: the signal against the send's return (negative: the commit signals the readers
 * before the EJB call returns), the reader still busy with the look before its wait when the signal came (the wait's
 * {@code busy}), the wake-up (from the signal, or the wait's start if later, to the reader's thread running), the
 * reader's work before its RECEIVE (empty looks included), the RECEIVE, and from the RECEIVE to the bean.
 */
final class LatencyStages implements AutoCloseable {

    private static final String NAME = "ssb-bench-latency";
    private static final String RECEIVE = "org.ssbjca.Receive";
    private static final String WAIT = "org.ssbjca.Wait";
    private static final String MESSAGE = "org.ssbjca.bench.Latency";
    static final String[] STAGES = {"the signal against the send's return (negative: before it)",
        "the reader still busy with its look before the signal's wait", "the reader's wake-up",
        "the reader from its wake-up to its RECEIVE", "the RECEIVE", "from the RECEIVE to the bean"};

    private final long pid;
    private final Path file;

    private LatencyStages(long pid, Path file) {
        this.pid = pid;
        this.file = file;
    }

    /**
     * @param pid WildFly's JVM
     * @param file where the recording goes
     * @return the recording, or empty with the reason printed
     */
    static Optional<LatencyStages> start(long pid, Path file) {
        return JfrProfile.started(pid, "latency stages", "name=" + NAME, "settings=none",
                "+" + RECEIVE + "#enabled=true", "+" + RECEIVE + "#threshold=0ms", "+" + WAIT + "#enabled=true",
                "+" + MESSAGE + "#enabled=true", "filename=" + file)
                ? Optional.of(new LatencyStages(pid, file)) : Optional.empty();
    }

    /** Stops the recording and writes its file. */
    void stop() throws IOException {
        JfrProfile.jcmd(pid, "JFR.stop", "name=" + NAME);
    }

    /** One message's stages, in nanoseconds, and how its RECEIVE was reached. */
    record Message(long total, long[] stages, boolean signalled, int emptyLooks) {
    }

    /** What the recording shows: the messages it could place, and how many it could not. */
    record Result(List<Message> messages, int unplaced) {

        /**
         * @param count how many
         * @return the slowest {@code count} messages one by one, slowest first: "total ms: each stage's ms", the
         *     stages in the order of {@link #STAGES}
         */
        String describeSlowest(int count) {
            return messages.stream().sorted(Comparator.comparingLong(Message::total).reversed()).limit(count)
                    .map(m -> String.format(Locale.ROOT, "%.3f ms: %s", m.total() / 1e6, java.util.Arrays.stream(
                            m.stages()).mapToObj(n -> String.format(Locale.ROOT, "%.3f", n / 1e6))
                            .collect(java.util.stream.Collectors.joining(" / "))))
                    .collect(java.util.stream.Collectors.joining("; "));
        }

        /** @return "mean of each stage, ms" over the slowest {@code share} of the messages (1.0: all) */
        String describe(double share) {
            List<Message> sorted = new ArrayList<>(messages);
            sorted.sort(Comparator.comparingLong(Message::total).reversed());
            int n = Math.max(1, (int) Math.round(sorted.size() * share));
            List<Message> of = sorted.subList(0, Math.min(n, sorted.size()));
            StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "%,d messages, mean %.3f ms:", of.size(),
                    of.stream().mapToLong(Message::total).average().orElse(0) / 1e6));
            for (int s = 0; s < STAGES.length; s++) {
                int k = s;
                out.append(String.format(Locale.ROOT, "%s %s %.3f", s == 0 ? "" : ",", STAGES[s],
                        of.stream().mapToLong(m -> m.stages()[k]).average().orElse(0) / 1e6));
            }
            long fallback = of.stream().filter(m -> !m.signalled()).count();
            long empty = of.stream().filter(m -> m.emptyLooks() > 0).count();
            out.append(String.format(Locale.ROOT, "; %d found by a look without a signal (the fallback or a"
                    + " hand-off's), %d after an empty look", fallback, empty));
            return out.toString();
        }
    }

    /** Reads the recording: the messages of the runs whose deliveries came out of the adapter's RECEIVEs. */
    Result read() throws IOException {
        Map<Long, List<RecordedEvent>> byThread = new HashMap<>();
        Map<String, RecordedEvent> sent = new HashMap<>();
        List<RecordedEvent> received = new ArrayList<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
            String type = e.getEventType().getName();
            if (type.equals(MESSAGE)) {
                if (e.getBoolean("sent")) {
                    sent.put(e.getInt("run") + "/" + e.getInt("id"), e);
                } else {
                    received.add(e);
                }
            } else if (e.getThread() != null) {
                byThread.computeIfAbsent(e.getThread().getJavaThreadId(), t -> new ArrayList<>()).add(e);
            }
        }
        byThread.values().forEach(l -> l.sort(Comparator.comparing(RecordedEvent::getStartTime)));
        List<Message> messages = new ArrayList<>();
        int unplaced = 0;
        for (RecordedEvent r : received) {
            RecordedEvent s = sent.get(r.getInt("run") + "/" + r.getInt("id"));
            List<RecordedEvent> thread = r.getThread() == null ? List.of()
                    : byThread.getOrDefault(r.getThread().getJavaThreadId(), List.of());
            if (thread.isEmpty()) {
                continue; // not delivered by an adapter's reader: Artemis's run
            }
            Message m = s == null ? null : place(nanos(s.getEndTime()), nanos(r.getEndTime()), thread);
            if (m == null) {
                unplaced++;
            } else {
                messages.add(m);
            }
        }
        return new Result(messages, unplaced);
    }

    /** @return the message's stages, or null when its RECEIVE or that RECEIVE's wait is not in the recording */
    private static Message place(long sentAt, long receivedAt, List<RecordedEvent> thread) {
        RecordedEvent took = null;
        int at = -1;
        for (int i = 0; i < thread.size(); i++) {
            RecordedEvent e = thread.get(i);
            if (nanos(e.getEndTime()) > receivedAt) {
                break;
            }
            if (e.getEventType().getName().equals(RECEIVE) && e.getInt("messages") > 0) {
                took = e;
                at = i;
            }
        }
        if (took == null) {
            return null;
        }
        RecordedEvent wait = null;
        int empty = 0;
        for (int i = at - 1; i >= 0 && wait == null; i--) {
            RecordedEvent e = thread.get(i);
            if (e.getEventType().getName().equals(WAIT)) {
                wait = e;
            } else if (e.getEventType().getName().equals(RECEIVE) && e.getInt("messages") == 0) {
                empty++;
            }
        }
        if (wait == null || nanos(took.getStartTime()) < sentAt - 1_000_000_000L) {
            return null;
        }
        long woke = nanos(wait.getEndTime());
        boolean signalled = wait.getBoolean("signalled");
        long wakeUp = signalled ? wait.getLong("wakeUp") : 0;
        long busy = signalled ? wait.getLong("busy") : 0;
        long signalAt = busy > 0 ? nanos(wait.getStartTime()) - busy : woke - wakeUp;
        long[] stages = {
            signalAt - sentAt,
            busy,
            woke - Math.max(signalAt, nanos(wait.getStartTime())),
            nanos(took.getStartTime()) - woke,
            nanos(took.getEndTime()) - nanos(took.getStartTime()),
            receivedAt - nanos(took.getEndTime())};
        return new Message(receivedAt - sentAt, stages, signalled, empty);
    }

    private static long nanos(Instant t) {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    @Override
    public void close() throws IOException {
        Files.deleteIfExists(file);
    }
}
