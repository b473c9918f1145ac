package org.ssbjca.it.shared;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import org.jboss.ejb3.annotation.ResourceAdapter;
import org.ssbjca.api.TableRow;
import org.ssbjca.api.TableRowListener;

/**
 * Test MDB fed from {@value #TABLE} that fails every row, as {@link SharedQueueBean} fails every message, with the same
 * failure-policy and circuit-breaker properties; a row is set aside after three takings.
 */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "table", propertyValue = SharedTableBean.TABLE),
    @ActivationConfigProperty(propertyName = "keyColumn", propertyValue = "id"),
    @ActivationConfigProperty(propertyName = "payloadColumn", propertyValue = "body"),
    @ActivationConfigProperty(propertyName = "attemptsColumn", propertyValue = "attempts"),
    @ActivationConfigProperty(propertyName = "maxAttempts", propertyValue = "3"),
    @ActivationConfigProperty(propertyName = "retryDelaySeconds", propertyValue = "0"),
    @ActivationConfigProperty(propertyName = "pollMillis", propertyValue = "200"),
    @ActivationConfigProperty(propertyName = "unrecoverableExceptions",
            propertyValue = "java.lang.IllegalArgumentException"),
    @ActivationConfigProperty(propertyName = "breakerThreshold", propertyValue = "2"),
    @ActivationConfigProperty(propertyName = "breakerDelay", propertyValue = "600000"),
    @ActivationConfigProperty(propertyName = "breakerMaxDelay", propertyValue = "600000")
})
@ResourceAdapter("ssb-jca.rar")
public class SharedTableBean implements TableRowListener {

    /** The table: {@code id BIGSERIAL PRIMARY KEY, body TEXT NOT NULL, attempts INT NOT NULL DEFAULT 0}. */
    public static final String TABLE = "it_shared_work";

    @Override
    public void onRow(TableRow row) {
        String body = row.payloadText();
        if (body.startsWith("bad")) {
            throw new IllegalArgumentException("cannot parse " + body);
        }
        throw new IllegalStateException("the stock service is down for " + body);
    }
}
