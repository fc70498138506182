/* tree-sitter-train: the training run of tree-sitter's profile-guided build
 * (cmake/TreeSitter.cmake, DEVPORT_TREE_SITTER_PGO).
 *
 *   tree-sitter-train LIST   LIST: a file naming one Python file per line
 *
 * Does with each file what devport does with tree-sitter, so that the
 * profile weighs the code paths devport takes: a whole parse; a parse of
 * included ranges (every other line: region parsing); a walk of every node
 * with a cursor, reading each node's kind, offsets, flags, field and
 * children (pattern matching, the review); an edit and an incremental
 * re-parse with the changed ranges (the language server). Exits 1 if a file
 * cannot be read or parsed, so that no build takes a profile of nothing.
 */
#include <tree_sitter/api.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const TSLanguage *tree_sitter_python(void);

static char *readAll(const char *Path, uint32_t *Size) {
  FILE *F = fopen(Path, "rb");
  if (!F)
    return NULL;
  size_t Cap = 1 << 16, N = 0, Got;
  char *Buf = malloc(Cap);
  while (Buf && (Got = fread(Buf + N, 1, Cap - N, F)) > 0) {
    N += Got;
    if (N == Cap) {
      char *Grown = realloc(Buf, Cap *= 2);
      if (!Grown)
        free(Buf);
      Buf = Grown;
    }
  }
  fclose(F);
  *Size = (uint32_t)N;
  return Buf;
}

/* Reads every node of T as pattern matching and the review do. */
static unsigned long walk(TSTree *T) {
  unsigned long Nodes = 0;
  TSTreeCursor C = ts_tree_cursor_new(ts_tree_root_node(T));
  for (;;) {
    TSNode N = ts_tree_cursor_current_node(&C);
    uint32_t Count = ts_node_child_count(N);
    Nodes += ts_node_symbol(N) + ts_node_start_byte(N) + ts_node_end_byte(N) > 0;
    (void)ts_tree_cursor_current_field_id(&C);
    (void)ts_node_is_named(N);
    (void)ts_node_is_extra(N);
    (void)ts_node_has_error(N);
    (void)ts_node_start_point(N);
    for (uint32_t I = 0; I < Count && I < 8; ++I)
      (void)ts_node_symbol(ts_node_child(N, I));
    if (Count > 0)
      (void)ts_node_child_by_field_name(N, "name", 4);
    if (ts_tree_cursor_goto_first_child(&C))
      continue;
    while (!ts_tree_cursor_goto_next_sibling(&C))
      if (!ts_tree_cursor_goto_parent(&C)) {
        ts_tree_cursor_delete(&C);
        return Nodes;
      }
  }
}

/* Every other line of Text, as byte and point ranges; *Count of them. */
static TSRange *everyOtherLine(const char *Text, uint32_t Size, uint32_t *Count) {
  uint32_t Lines = 1;
  for (uint32_t I = 0; I < Size; ++I)
    Lines += Text[I] == '\n';
  TSRange *R = malloc(sizeof(TSRange) * (Lines / 2 + 1));
  uint32_t Row = 0, Begin = 0;
  *Count = 0;
  for (uint32_t I = 0; R && I <= Size; ++I) {
    if (I < Size && Text[I] != '\n')
      continue;
    uint32_t End = I < Size ? I + 1 : Size;
    /* A last line without its newline ends on its own row. */
    TSPoint EndPoint = I < Size ? (TSPoint){Row + 1, 0} : (TSPoint){Row, End - Begin};
    if (Row % 2 == 0 && End > Begin)
      R[(*Count)++] = (TSRange){{Row, 0}, EndPoint, Begin, End};
    ++Row;
    Begin = End;
  }
  return R;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: tree-sitter-train LIST\n");
    return 2;
  }
  FILE *List = fopen(argv[1], "r");
  if (!List) {
    fprintf(stderr, "tree-sitter-train: %s: cannot open\n", argv[1]);
    return 1;
  }
  TSParser *P = ts_parser_new();
  ts_parser_set_language(P, tree_sitter_python());
  char Path[4096];
  unsigned long Files = 0, Bytes = 0, Nodes = 0;
  int Failed = 0;
  while (!Failed && fgets(Path, sizeof(Path), List)) {
    Path[strcspn(Path, "\r\n")] = '\0';
    if (!*Path)
      continue;
    uint32_t Size = 0;
    char *Text = readAll(Path, &Size);
    TSTree *T = Text ? ts_parser_parse_string(P, NULL, Text, Size) : NULL;
    if (!T) {
      fprintf(stderr, "tree-sitter-train: %s: cannot read or parse\n", Path);
      Failed = 1;
      free(Text);
      break;
    }
    Nodes += walk(T);
    /* Region parsing. */
    uint32_t Count = 0;
    TSRange *Ranges = everyOtherLine(Text, Size, &Count);
    if (Ranges && Count > 0 && ts_parser_set_included_ranges(P, Ranges, Count)) {
      TSTree *R = ts_parser_parse_string(P, NULL, Text, Size);
      if (R) {
        Nodes += walk(R);
        ts_tree_delete(R);
      }
    }
    ts_parser_set_included_ranges(P, NULL, 0);
    free(Ranges);
    /* An edit: a space typed at the start of the middle line. */
    char *Edited = malloc(Size + 2);
    if (Edited) {
      uint32_t At = Size / 2;
      while (At > 0 && Text[At - 1] != '\n')
        --At;
      uint32_t Row = 0;
      for (uint32_t I = 0; I < At; ++I)
        Row += Text[I] == '\n';
      memcpy(Edited, Text, At);
      Edited[At] = ' ';
      memcpy(Edited + At + 1, Text + At, Size - At);
      TSInputEdit E = {At, At, At + 1, {Row, 0}, {Row, 0}, {Row, 1}};
      ts_tree_edit(T, &E);
      TSTree *U = ts_parser_parse_string(P, T, Edited, Size + 1);
      if (U) {
        uint32_t Changed = 0;
        free(ts_tree_get_changed_ranges(T, U, &Changed));
        Nodes += walk(U);
        ts_tree_delete(U);
      }
      free(Edited);
    }
    ts_tree_delete(T);
    free(Text);
    ++Files;
    Bytes += Size;
  }
  fclose(List);
  ts_parser_delete(P);
  if (Failed)
    return 1;
  if (Files == 0) {
    fprintf(stderr, "tree-sitter-train: %s names no file\n", argv[1]);
    return 1;
  }
  printf("tree-sitter-train: %lu files, %lu bytes, %lu nodes read\n", Files, Bytes, Nodes);
  return 0;
}
