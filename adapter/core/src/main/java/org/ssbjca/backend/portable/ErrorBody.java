package org.ssbjca.backend.portable;

import java.nio.charset.StandardCharsets;
import org.ssbjca.api.MessageTypes;

/** The body of a Service Broker Error message: {@code <Error xmlns="..."><Code/><Description/></Error>}. */
final class ErrorBody {

    /** The code Service Broker uses when a dialog's LIFETIME expired. */
    static final int LIFETIME_EXPIRED = -8489;

    private ErrorBody() {
    }

    static byte[] of(int code, String description) {
        String xml = "<Error xmlns=\"" + MessageTypes.ERROR_NAMESPACE + "\"><Code>" + code + "</Code><Description>"
                + escape(description) + "</Description></Error>";
        return xml.getBytes(StandardCharsets.UTF_8);
    }

    private static String escape(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (char ch : s.toCharArray()) {
            switch (ch) {
                case '<':
                    b.append("&lt;");
                    break;
                case '>':
                    b.append("&gt;");
                    break;
                case '&':
                    b.append("&amp;");
                    break;
                default:
                    b.append(ch);
            }
        }
        return b.toString();
    }
}
