package org.ssbjca.inbound;

import org.ssbjca.support.AdapterLog;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.ssbjca.backend.Broker;
import org.ssbjca.backend.BrokerSession;
import org.ssbjca.backend.DeliveryLedger;
import org.ssbjca.backend.PriorityRequest;
import org.ssbjca.support.Xml;
import org.w3c.dom.Document;
import org.xml.sax.SAXException;

/**
 * Finds priority requests wherever they sit in the queue (a queue can be read without removing anything) and
 * records each group's requested priority, so that readers take that group next. A request is a message of the
 * activation's {@code priorityMessageType} whose body is {@code <priority>n</priority>} (or just the number), n from
 * 0 to 255. No front-end service and no copying of messages is needed. At most one scan per interval per
 * activation; the scan also refreshes which groups have a priority. While one reader scans, the others wait for it
 * before they receive, so that none takes a group ahead of priorities the scan is about to record.
 */
final class PriorityScanner {

    private static final AdapterLog LOG = AdapterLog.of(PriorityScanner.class);
    private static final long INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(250);
    private static final long AFTER_ARRIVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
    /** The longest a reader waits for another reader's scan before it receives anyway. */
    static final long SCAN_WAIT_MILLIS = 2_000;

    private final String queue;
    private final String messageType;
    private final AtomicLong lastScan = new AtomicLong(System.nanoTime() - INTERVAL_NANOS);
    private volatile long scannedGeneration = -1;
    private volatile long scannedRequests = -1;
    private volatile CountDownLatch running;
    private final Set<UUID> prioritised = ConcurrentHashMap.newKeySet();
    private final AtomicLong scans = new AtomicLong();

    PriorityScanner(String queue, String messageType) {
        this.queue = queue;
        this.messageType = messageType;
    }

    /**
     * A scan is due every 250 ms, 20 ms after messages whose types this JVM did not count arrived on the queue since
     * the last scan (another process's, known from the queue's wake-up signals, {@link
     * org.ssbjca.backend.QueueSignals#uncountedArrivals}), and at once when a transaction committed in this JVM put a
     * priority request on the queue since the last scan, so that a request committed while every reader was busy is
     * seen before the next group is picked.
     *
     * @param generation the queue's current count of uncounted arrivals
     * @param requests how many transactions committed in this JVM have put priority requests on the queue
     * @return whether a scan is due; if so, this caller has claimed it
     */
    boolean claimScan(long generation, long requests) {
        long last = lastScan.get();
        long since = System.nanoTime() - last;
        boolean due = since >= INTERVAL_NANOS || requests != scannedRequests
                || (generation != scannedGeneration && since >= AFTER_ARRIVAL_NANOS);
        if (!due) {
            return false;
        }
        synchronized (this) {
            if (running != null) {
                return false;
            }
            // The scan is marked running before the time of the last scan moves: a reader that finds no scan due
            // because it sees the new time (read outside this lock) must also see the scan, and wait for it.
            // Marked after, a reader could fall between the two and take a plain group ahead of the priorities
            // the scan was about to record.
            CountDownLatch scan = new CountDownLatch(1);
            running = scan;
            if (lastScan.compareAndSet(last, System.nanoTime())) {
                scannedGeneration = generation;
                scannedRequests = requests;
                return true;
            }
            running = null;
            scan.countDown();
            return false;
        }
    }

    /** Returns the type of the priority requests, or null when none are looked for. */
    String messageType() {
        return messageType;
    }

    /** Ends the scan this caller claimed, done or failed, and lets the readers waiting for it go on. */
    synchronized void scanEnded() {
        if (running != null) {
            running.countDown();
            running = null;
        }
    }

    /**
     * Waits while another reader's scan runs (at most 2 s), so that no reader takes a group while priorities that
     * scan is recording are not yet committed. Returns at once when no scan runs.
     *
     * @return false when the scan was still running after the wait
     * @throws InterruptedException if interrupted
     */
    boolean awaitScan() throws InterruptedException {
        CountDownLatch scan = running;
        return scan == null || scan.await(SCAN_WAIT_MILLIS, TimeUnit.MILLISECONDS);
    }

    /**
     * Scans the queue and records the priorities requested; runs in the caller's (local) transaction.
     *
     * @param broker the broker
     * @param session a session on the connection to use
     */
    void scan(Broker broker, BrokerSession session) {
        scans.incrementAndGet();
        DeliveryLedger ledger = broker.ledger(session.connection());
        Map<UUID, Integer> current = ledger.priorities(queue);
        if (messageType != null) {
            for (PriorityRequest r : ledger.priorityRequests(queue, messageType)) {
                Integer wanted = parse(r.body());
                if (wanted == null) {
                    LOG.priorityRequestIgnored(messageType, r.groupId(), queue);
                } else if (!wanted.equals(current.get(r.groupId()))) {
                    session.setPriority(r.groupId(), wanted);
                    current.put(r.groupId(), wanted);
                }
            }
        }
        prioritised.retainAll(current.keySet());
        prioritised.addAll(current.keySet());
    }

    /**
     * The priorities the requests now in the queue ask for, as the next scan would record them (a group's last valid
     * request wins; invalid ones are left out). Reads only, in the caller's transaction.
     *
     * @param ledger the delivery ledger on a connection to the activation's database
     * @return each requesting group's priority, in the order of the requests
     */
    Map<UUID, Integer> requested(DeliveryLedger ledger) {
        Map<UUID, Integer> requested = new java.util.LinkedHashMap<>();
        if (messageType != null) {
            for (PriorityRequest r : ledger.priorityRequests(queue, messageType)) {
                Integer wanted = parse(r.body());
                if (wanted != null) {
                    requested.put(r.groupId(), wanted);
                }
            }
        }
        return requested;
    }

    /** Returns how many scans were started since the activation began. */
    long scans() {
        return scans.get();
    }

    /**
     * Returns whether it had a priority at the last scan (or since it was set through this activation).
     *
     * @param group a conversation group
     */
    boolean hasPriority(UUID group) {
        return prioritised.contains(group);
    }

    /** @param group a group that got a priority outside a scan */
    void prioritised(UUID group) {
        prioritised.add(group);
    }

    /**
     * Returns n, or null when the body holds no number from 0 to 255.
     *
     * @param body {@code <priority>n</priority>}, any root element whose text is n, or the number alone
     */
    static Integer parse(byte[] body) {
        String text;
        try {
            Document doc = Xml.parse(body);
            text = doc.getDocumentElement().getTextContent();
        } catch (SAXException notXml) {
            text = new String(body, StandardCharsets.UTF_8);
        }
        try {
            int n = Integer.parseInt(text.trim());
            return n >= 0 && n <= 255 ? n : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
