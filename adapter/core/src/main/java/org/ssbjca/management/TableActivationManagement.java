package org.ssbjca.management;

import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.ssbjca.backend.BackgroundRunner;
import org.ssbjca.backend.table.SetAsideRow;
import org.ssbjca.backend.table.TableCounts;
import org.ssbjca.inbound.table.TableActivation;

/** The MBean of one table activation ({@link TableActivationMXBean}). */
final class TableActivationManagement extends BreakerAttributes implements TableActivationMXBean {

    /** Set-aside rows a listing reads at most. */
    private static final int MAX_SCAN = 10_000;
    /** Characters a search text has at most. */
    private static final int MAX_TEXT = 200;
    /** Keys one redelivery statement names at most. */
    private static final int MAX_KEYS = 1000;

    private final TableActivation activation;
    private final RedeliveryJobs requeues;

    /**
     * @param activation the table activation
     * @param runner runs its re-queue jobs
     */
    TableActivationManagement(TableActivation activation, BackgroundRunner runner) {
        super(activation.breaker());
        this.activation = activation;
        this.requeues = new RedeliveryJobs(runner);
    }

    private TableCounts counts() {
        try {
            return activation.counts();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the table of " + activation.name() + ": " + e.getMessage());
        }
    }

    @Override
    public String getTable() {
        return activation.table();
    }

    @Override
    public String getMode() {
        return activation.mode();
    }

    @Override
    public int getReaderCount() {
        return activation.readerCount();
    }

    @Override
    public int getWaitingReaders() {
        return activation.waitingReaders();
    }

    @Override
    public long getAvailableRows() {
        return counts().available();
    }

    @Override
    public long getWaitingRows() {
        return counts().waiting();
    }

    @Override
    public long getLeasedRows() {
        return counts().leased();
    }

    @Override
    public long getSetAsideRows() {
        return counts().setAside();
    }

    @Override
    public long getUnscheduledRows() {
        return counts().unscheduled();
    }

    @Override
    public long getOldestAvailableAgeSeconds() {
        Duration age = counts().oldestAge();
        return age == null ? -1 : Math.max(0, age.toSeconds());
    }

    @Override
    public long getDeliveredRows() {
        return activation.deliveredRows();
    }

    @Override
    public long getFailedDeliveries() {
        return activation.failedDeliveries();
    }

    @Override
    public long getLeasesLost() {
        return activation.leasesLost();
    }

    @Override
    public Date getFailingSince() {
        Instant since = activation.failingSince();
        return since == null ? null : Date.from(since);
    }

    @Override
    public Date getDeliveriesFailingSince() {
        Instant since = activation.deliveriesFailingSince();
        return since == null ? null : Date.from(since);
    }

    @Override
    public String getLastError() {
        return activation.lastError();
    }

    @Override
    public int redeliverSetAside() {
        try {
            return activation.redeliverSetAside();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot redeliver the set-aside rows of " + activation.name() + ": "
                    + e.getMessage());
        }
    }

    @Override
    public List<SetAsideGroupInfo> listSetAsideGroups(int scanMax) {
        return SetAsideGroups.of(setAsideRows(scanMax));
    }

    @Override
    public List<SetAsideRowInfo> searchSetAside(String text, int scanMax) {
        String t = text == null ? "" : text;
        if (t.length() > MAX_TEXT) {
            throw new IllegalArgumentException("text: " + t.length() + " characters, at most " + MAX_TEXT);
        }
        return SetAsideGroups.search(setAsideRows(scanMax), t);
    }

    @Override
    public int redeliverSetAsideGroup(String key, int scanMax) {
        if (key == null || key.isEmpty()) {
            throw new IllegalArgumentException("key: required, a group's key as listSetAsideGroups shows it");
        }
        List<Object> keys = SetAsideGroups.keys(setAsideRows(scanMax), key);
        int n = 0;
        try {
            for (int i = 0; i < keys.size(); i += MAX_KEYS) {
                n += activation.redeliverSetAside(keys.subList(i, Math.min(keys.size(), i + MAX_KEYS)));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot redeliver the set-aside rows of " + activation.name() + ": "
                    + e.getMessage());
        }
        return n;
    }

    @Override
    public RedeliveryJobInfo startSetAsideGroupRequeue(String key, int scanMax, double rowsPerSecond) {
        RedeliveryJob.Kind.SET_ASIDE_ROWS.checkedRate(rowsPerSecond);
        if (key == null || key.isEmpty()) {
            throw new IllegalArgumentException("key: required, a group's key as listSetAsideGroups shows it");
        }
        return requeue("group " + key, SetAsideGroups.keys(setAsideRows(scanMax), key), rowsPerSecond);
    }

    @Override
    public RedeliveryJobInfo startSetAsideRequeue(String[] keys, double rowsPerSecond) {
        RedeliveryJob.Kind.SET_ASIDE_ROWS.checkedRate(rowsPerSecond);
        if (keys == null || keys.length == 0 || keys.length > MAX_SCAN) {
            throw new IllegalArgumentException("keys: " + (keys == null ? 0 : keys.length) + " listed, 1 to "
                    + MAX_SCAN + " set-aside rows' keys");
        }
        Map<String, Object> setAside = new LinkedHashMap<>();
        setAsideRows(MAX_SCAN).forEach(r -> setAside.put(String.valueOf(r.key()), r.key()));
        List<Object> chosen = Arrays.stream(keys).map(setAside::get).filter(Objects::nonNull).toList();
        return requeue(chosen.size() + " chosen set-aside row(s)", chosen, rowsPerSecond);
    }

    private RedeliveryJobInfo requeue(String what, List<Object> keys, double rate) {
        return requeues.start(new RedeliveryJob<>(RedeliveryJob.Kind.SET_ASIDE_ROWS, activation.name(), what, keys,
                rate, key -> {
                    try {
                        return activation.requeueSetAside(key);
                    } catch (SQLException e) {
                        throw new IllegalStateException("cannot re-queue the set-aside rows of " + activation.name()
                                + ": " + e.getMessage(), e);
                    }
                }, RedeliveryJob.Pacer.SYSTEM));
    }

    @Override
    public RedeliveryJobInfo getRequeueJob() {
        return requeues.current();
    }

    @Override
    public boolean cancelRequeue() {
        return requeues.cancel();
    }

    private List<SetAsideRow> setAsideRows(int scanMax) {
        if (scanMax < 1 || scanMax > MAX_SCAN) {
            throw new IllegalArgumentException("scanMax: " + scanMax + " is out of range: 1 to " + MAX_SCAN);
        }
        try {
            return activation.setAsideRows(scanMax);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the set-aside rows of " + activation.name() + ": "
                    + e.getMessage());
        }
    }

    @Override
    public int purgeSetAside() {
        try {
            return activation.purgeSetAside();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot purge the set-aside rows of " + activation.name() + ": "
                    + e.getMessage());
        }
    }

}
