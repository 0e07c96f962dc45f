/** The line a page shows after an action: what was done, or why it was refused. */
export function PageNotices(props: { notice?: string | undefined; error?: string | undefined }) {
  return (
    <>
      {props.notice && <p class="notice">{props.notice}</p>}
      {props.error && (
        <p class="error" role="alert">
          {props.error}
        </p>
      )}
    </>
  );
}
