package org.ssbjca.sample.scheduler;

import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.EJB;
import jakarta.ejb.MessageDriven;
import java.sql.Connection;
import java.time.Instant;
import java.util.logging.Logger;
import org.jboss.ejb3.annotation.ResourceAdapter;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.ServiceBrokerConnection;
import org.ssbjca.api.ServiceBrokerConnectionFactory;
import org.ssbjca.sample.Jdbc;

/**
 * The readers of every scheduler (seed 001's activation procedure ActivationAsyncTarget): runs a task, records its
 * start and end in the execution log, answers AsyncDone, and sends the scheduler's next tasks when they may go.
 *
 * <p>{@code commitBeforeDelivery}: the RECEIVE commits before the task runs, as in seed 002's "receive; commit; do
 * the work", so that several readers work on one scheduler's conversation at the same time (within a transaction
 * that holds the conversation group, its messages could only be processed one after the other). A task is therefore
 * run at most once: if the server dies in the middle, the task stays RUNNING in the log and its AsyncDone never
 * comes (the caller's wait times out). A task whose work fails still ends, with the failure as its outcome.
 */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "queue", propertyValue = "AsyncTargetQueue"),
    @ActivationConfigProperty(propertyName = "maxReaders", propertyValue = "5"),
    @ActivationConfigProperty(propertyName = "commitBeforeDelivery", propertyValue = "true")
})
@ResourceAdapter("ssb-jca.rar")
public class TaskWorker implements BrokerMessageListener {

    private static final Logger LOG = Logger.getLogger(TaskWorker.class.getName());

    @Resource(lookup = "java:/ssb/ConnectionFactory")
    private ServiceBrokerConnectionFactory factory;

    @EJB
    private ExecutionLog log;

    @Override
    public void onMessage(BrokerMessage message) {
        if (!TaskMessage.SENT.equals(message.messageTypeName())) {
            LOG.warning("TaskWorker ignores a message of type " + message.messageTypeName());
            return;
        }
        TaskMessage task = TaskMessage.of(message);
        if (!log.started(task.schedulerId(), task.taskNo(), Thread.currentThread().getName())) {
            return;
        }
        String outcome = work(task);
        try (ServiceBrokerConnection broker = factory.getConnection()) {
            Connection c = broker.jdbcConnection();
            Dispatcher.Row scheduler = Dispatcher.lock(c, task.schedulerId(), 0);
            Jdbc.update(c, "UPDATE sample_execution_log SET state = ?, ended_at = ?, outcome = ?"
                    + " WHERE scheduler_id = ? AND task_no = ?", Dispatcher.ENDED, Instant.now(), outcome,
                    task.schedulerId(), task.taskNo());
            if (scheduler == null || !scheduler.open()) {
                return;
            }
            broker.sendText(message.conversation(), TaskMessage.DONE,
                    TaskMessage.doneXml(task.schedulerId(), task.taskNo(), outcome));
            Dispatcher.dispatch(broker, scheduler);
        }
    }

    /** The task's work: the seed's {@code exec(@SQL)} of a {@code WAITFOR DELAY}. */
    private static String work(TaskMessage task) {
        try {
            Thread.sleep(task.workMillis());
            return "OK";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "FAILED: interrupted";
        }
    }
}
