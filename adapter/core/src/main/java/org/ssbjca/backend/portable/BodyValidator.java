package org.ssbjca.backend.portable;

import org.ssbjca.api.BrokerException;
import org.ssbjca.backend.Validation;
import org.ssbjca.support.Xml;
import org.xml.sax.SAXException;

/** Checks a body against its message type's VALIDATION, as Service Broker does when the message arrives. */
final class BodyValidator {

    private BodyValidator() {
    }

    /**
     * Returns the validations a body passes without being parsed: every one when it is empty, else NONE.
     *
     * @param body a message body
     */
    static String[] passedUnparsed(byte[] body) {
        return body == null || body.length == 0 ? ALL : NONE_ONLY;
    }

    /** Returns every validation: those a body passes once {@link #check} accepted it for its type's. */
    static String[] every() {
        return ALL;
    }

    private static final String[] ALL = java.util.Arrays.stream(Validation.values()).map(Enum::name)
            .toArray(String[]::new);
    private static final String[] NONE_ONLY = {Validation.NONE.name()};

    static void check(String messageType, Validation validation, byte[] body) {
        boolean empty = body == null || body.length == 0;
        if (validation == Validation.EMPTY && !empty) {
            throw new BrokerException("message type '" + messageType + "' has VALIDATION = EMPTY but the body has "
                    + body.length + " bytes");
        }
        if (validation == Validation.WELL_FORMED_XML && !empty) {
            try {
                Xml.parse(body);
            } catch (SAXException e) {
                throw new BrokerException("message type '" + messageType
                        + "' has VALIDATION = WELL_FORMED_XML but the body is not well-formed XML: " + e.getMessage(),
                        e);
            }
        }
    }
}
